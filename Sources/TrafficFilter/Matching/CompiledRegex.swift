import Foundation

/// A `~` pattern compiled once, when the filter is parsed, and matched ignoring case anywhere
/// in the text (anchor it with `^` and `$`).
///
/// The pattern is checked with Swift's `Regex`, whose errors say what is wrong and where, and
/// matched with `NSRegularExpression`, which matches short texts several times faster on Linux
/// (0.7 µs against 4.5 µs per URL, measured on 10,000 URLs in a release build) — a filter
/// runs over every kept row each frame. Before the engine runs, the text the pattern requires
/// (``RequiredText``) is looked for with a byte search: a text without it is no match.
struct CompiledRegex: @unchecked Sendable {
    // @unchecked: NSRegularExpression is immutable once made and documented as safe to use
    // from several threads at once.
    private let expression: NSRegularExpression
    private let required: RequiredText?

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
        required = RequiredText(pattern: pattern)
    }

    func matches(_ text: Substring) -> Bool {
        if let required, required.rulesOut(text) { return false }
        // A whole string (a URL, a header value) is matched as it is, without a copy.
        let string = text.startIndex == text.base.startIndex && text.endIndex == text.base.endIndex ? text.base : String(text)
        return expression.firstMatch(in: string, range: NSRange(string.startIndex..., in: string)) != nil
    }
}
