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
/// the universe on a 60-character URL. A pattern that may do so (``BacktrackingRisk``) is
/// matched with ICU reporting its progress, and stopped past a budget of steps
/// (``stepBudget``: about 10 ms here, the same count on any machine); it is refused when
/// parsed if it overruns on one of a few probe texts, and if it still overruns on a real text,
/// it is given up (``gaveUp``): that text and every later one it would have to decide count as
/// not matching it, and whoever shows the filter says so. Other patterns run without that
/// per-text cost (a progress report at every start position).
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
    /// Whether the pattern may backtrack without end (``BacktrackingRisk``): then ICU runs under
    /// ``stepBudget``.
    private let budgeted: Bool
    /// Set once an ICU match ran past ``stepBudget``.
    private let overrun = Overrun()

    /// Progress reports ICU may make beyond one per start position before a match is stopped:
    /// it reports every ten thousand or so backtracking steps, which took about 0.2 ms each
    /// here (27 November 2026), so 50 is about 10 ms — counted, not timed, so a busy machine
    /// stops no match early.
    static let stepBudget = 50
    /// The longest text a pattern without ``BacktrackingRisk`` is matched without the budget:
    /// two repetitions (`.*=.*;$`) are cubic in an unanchored search, seconds on a 2 KB header.
    static let longestUnbudgetedText = 256
    /// How messages write ``stepBudget``.
    static let budgetText = "about 10 ms"

    /// Texts every budgeted pattern is tried on when parsed: URL-like, long enough for a
    /// backtracking pattern to show itself within ``stepBudget``, and without a match for most.
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
        budgeted = BacktrackingRisk.of(pattern)
        if budgeted, posix == nil, Self.probes.contains(where: { Self.budgetedMatch(expression, in: $0) == nil }) {
            throw .invalidRegex(
                column: column, pattern: pattern,
                problem: "matching it takes too long (\(Self.budgetText) on a 100-character URL): a repetition inside a repetition, "
                    + "such as (.*)* or (a+)+, makes the engine try every way to split the text; write it without the nesting")
        }
    }

    /// Whether a match ran past ``stepBudget`` since the pattern was parsed: from then on, texts
    /// ICU would have to decide count as not matching it.
    var gaveUp: Bool { overrun.happened.load(ordering: .relaxed) }

    /// Whether `expression` matches anywhere in `string`; `nil` when it could not tell within
    /// ``stepBudget`` (ICU reports its progress while it works, and is stopped then).
    private static func budgetedMatch(_ expression: NSRegularExpression, in string: String) -> Bool? {
        let range = NSRange(string.startIndex..., in: string)
        let allowed = range.length + 2 + stepBudget  // a report per start position, and the budget
        var matched = false, overran = false, reports = 0
        expression.enumerateMatches(in: string, options: [.reportProgress], range: range) { result, _, stop in
            if result != nil {
                matched = true
                stop.pointee = true
                return
            }
            reports += 1
            if reports > allowed {
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
        } else if !budgeted, string.utf16.count <= Self.longestUnbudgetedText {
            matched = expression.firstMatch(in: string, range: NSRange(string.startIndex..., in: string)) != nil
        } else {
            guard !gaveUp else { return false }
            guard let found = Self.budgetedMatch(expression, in: string) else {
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
