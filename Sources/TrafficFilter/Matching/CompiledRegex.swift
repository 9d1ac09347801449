import Foundation
import Synchronization

/// A `~` pattern compiled once, when the filter is parsed, and matched ignoring case anywhere
/// in the text (anchor it with `^` and `$`).
///
/// The pattern is checked with Swift's `Regex`, whose errors say what is wrong and where, and
/// matched with `NSRegularExpression`, which matches short texts several times faster on Linux
/// (0.7 µs against 4.5 µs per URL, measured on 10,000 URLs in a release build) — a filter
/// runs over every kept row each frame — or, for the common patterns both read alike, on
/// printable-ASCII texts, with the C library's engine (``POSIXRegex``), faster again. Before
/// the engine runs, the text the pattern requires (``RequiredText``) is looked for with a byte
/// search: a text without it is no match.
struct CompiledRegex: @unchecked Sendable {
    // @unchecked: NSRegularExpression is immutable once made and documented as safe to use
    // from several threads at once.
    private let expression: NSRegularExpression
    /// The same pattern in the C library's engine, when it reads it alike (``POSIXRegex``):
    /// used for printable-ASCII texts, several times faster.
    private let posix: POSIXRegex?
    private let required: RequiredText?
    /// Verdicts on texts already matched: a dashboard's rows repeat their URLs (10,000 rows
    /// of 2,000 URLs in the benchmark), and even the C library's engine costs more a text
    /// (0.35 µs) than a look-up here.
    private let verdicts = Verdicts()

    /// At most ``limit`` remembered verdicts on texts of at most ``longestText`` bytes (so
    /// at most 16 MiB of texts); when full, they are forgotten at once.
    private final class Verdicts: Sendable {
        static let limit = 8192
        static let longestText = 2048
        let known = Mutex<[String: Bool]>([:])
    }

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
        posix = POSIXRegex(pattern)
        required = RequiredText(pattern: pattern)
    }

    func matches(_ text: Substring) -> Bool {
        if let required, required.rulesOut(text) { return false }
        // A whole string (a URL, a header value) is matched as it is, without a copy.
        let string = text.startIndex == text.base.startIndex && text.endIndex == text.base.endIndex ? text.base : String(text)
        let remembered = string.utf8.count <= Verdicts.longestText
        if remembered, let known = verdicts.known.withLock({ $0[string] }) { return known }
        let matched =
            if let posix, POSIXRegex.canMatch(string) {
                posix.matches(string)
            } else {
                expression.firstMatch(in: string, range: NSRange(string.startIndex..., in: string)) != nil
            }
        guard remembered else { return matched }
        verdicts.known.withLock { known in
            if known.count >= Verdicts.limit { known.removeAll(keepingCapacity: true) }
            known[string] = matched
        }
        return matched
    }
}
