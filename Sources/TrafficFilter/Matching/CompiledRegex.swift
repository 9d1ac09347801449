import Foundation

/// A `~` pattern compiled once, when the filter is parsed, and matched ignoring case anywhere
/// in the text (anchor it with `^` and `$`).
///
/// The pattern is checked with Swift's `Regex`, whose errors say what is wrong and where, and
/// matched with `NSRegularExpression`, which matches short texts several times faster on Linux
/// (0.7 µs against 4.5 µs per URL, measured on 10,000 URLs in a release build) — a filter
/// runs over every kept row each frame.
struct CompiledRegex: @unchecked Sendable {
    // @unchecked: NSRegularExpression is immutable once made and documented as safe to use
    // from several threads at once.
    private let expression: NSRegularExpression

    /// The characters that make a `~` value a regular expression rather than plain text.
    static let metacharacters: Set<Character> = ["\\", "^", "$", ".", "|", "?", "*", "+", "(", ")", "[", "]", "{", "}"]

    init(_ pattern: String, column: Int) throws(FilterParseError) {
        do {
            _ = try Regex(pattern)
        } catch {
            let problem = String(describing: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "not a pattern"
            throw .invalidRegex(column: column, pattern: pattern, problem: problem)
        }
        do {
            expression = try NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
        } catch {
            throw .invalidRegex(column: column, pattern: pattern, problem: "a construct this platform's regex engine does not support")
        }
    }

    func matches(_ text: Substring) -> Bool {
        let string = String(text)
        return expression.firstMatch(in: string, range: NSRange(string.startIndex..., in: string)) != nil
    }
}
