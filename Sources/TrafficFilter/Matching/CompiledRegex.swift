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
///
/// ICU backtracks: a repetition inside a repetition (`(.*)*X`, `(a+)+$`) can take longer than
/// the universe on a 60-character URL. Each ICU match therefore stops after ``timeLimit``; the
/// pattern is refused when parsed if it overruns on one of a few probe texts, and if it still
/// overruns on a real text, it is given up (``gaveUp``): that text and every later one count
/// as not matching, and whoever shows the filter says so.
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
    /// Set once an ICU match ran past ``timeLimit``.
    private let overrun = Overrun()

    /// The longest one ICU match may take, and how messages write it.
    static let timeLimit = Duration.milliseconds(10)
    static let timeLimitText = "10 ms"

    /// Texts every pattern is tried on when parsed: URL-like, long enough for a backtracking
    /// pattern to show itself within ``timeLimit``, and without a match for most patterns.
    static let probes = [
        "http://127.0.0.1:8080/" + String(repeating: "a", count: 48) + "/items?id=0123456789&q=" + String(repeating: "x", count: 24),
        String(repeating: "a", count: 64) + "!",
        "/" + String(repeating: "0", count: 40) + "?",
    ]

    private final class Overrun: Sendable {
        let happened = Atomic(false)
    }

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
        if posix == nil, Self.probes.contains(where: { Self.match(expression, in: $0) == nil }) {
            throw .invalidRegex(
                column: column, pattern: pattern,
                problem: "matching it takes too long (over \(Self.timeLimitText) on a 100-character URL): a repetition inside a repetition, "
                    + "such as (.*)* or (a+)+, makes the engine try every way to split the text; write it without the nesting")
        }
    }

    /// Whether a match ran past ``timeLimit`` since the pattern was parsed: from then on, texts
    /// ICU would match count as not matching.
    var gaveUp: Bool { overrun.happened.load(ordering: .relaxed) }

    /// Whether `expression` matches anywhere in `string`; `nil` when it could not tell within
    /// ``timeLimit`` (ICU reports its progress while it works, and is stopped then).
    private static func match(_ expression: NSRegularExpression, in string: String) -> Bool? {
        let deadline = ContinuousClock.now + timeLimit
        var matched = false, overran = false
        expression.enumerateMatches(in: string, options: [.reportProgress], range: NSRange(string.startIndex..., in: string)) { result, _, stop in
            if result != nil {
                matched = true
                stop.pointee = true
            } else if ContinuousClock.now > deadline {
                overran = true
                stop.pointee = true
            }
        }
        return overran ? nil : matched
    }

    func matches(_ text: Substring) -> Bool {
        if let required, required.rulesOut(text) { return false }
        // A whole string (a URL, a header value) is matched as it is, without a copy.
        let string = text.startIndex == text.base.startIndex && text.endIndex == text.base.endIndex ? text.base : String(text)
        let remembered = string.utf8.count <= Verdicts.longestText
        if remembered, let known = verdicts.known.withLock({ $0[string] }) { return known }
        let matched: Bool
        if let posix, POSIXRegex.canMatch(string) {
            matched = posix.matches(string)
        } else {
            guard !gaveUp else { return false }
            guard let found = Self.match(expression, in: string) else {
                overrun.happened.store(true, ordering: .relaxed)
                return false
            }
            matched = found
        }
        guard remembered else { return matched }
        verdicts.known.withLock { known in
            if known.count >= Verdicts.limit { known.removeAll(keepingCapacity: true) }
            known[string] = matched
        }
        return matched
    }
}
