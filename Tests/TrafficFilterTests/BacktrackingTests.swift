import Foundation
import Testing
@testable import TrafficFilter

/// ICU backtracks: `url~"(.*.*)*X$"` hung `replay --filter`, and froze the dashboard so that
/// not even Ctrl-C or SIGTERM reached it (a hunt of 27 November).
@Suite("Patterns that backtrack without end")
struct BacktrackingTests {
    @Test("a pattern with a repetition inside a repetition is refused when parsed, saying why", arguments: [
        #"url~"(.*.*)*X$""#, #"url~"(.*)*X$""#, #"url~"(a+)+$""#, #"url~"(a|aa)+$""#, #"url~"(\d+)+x""#,
        #"h:cache-control~"(.*)*z$""#,
    ])
    func refusedWhenParsed(text: String) {
        let started = ContinuousClock.now
        #expect {
            try Filter(text)
        } throws: { error in
            "\(error)".contains("matching it takes too long (about 10 ms on a 100-character URL): a repetition inside a repetition")
        }
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test("a pattern that backtracks only on some texts is given up on the first, quickly; the filter says so")
    func givenUpAtRun() throws {
        let filter = try Filter(#"url~"(b+)+$""#)
        #expect(!filter.gaveUp)
        #expect(filter.matches(Row.miss.with { $0.filterURL = "https://h/bbb" }), "an ordinary text still matches")
        let started = ContinuousClock.now
        let hostile = Row.miss.with { $0.filterURL = "https://h/" + String(repeating: "b", count: 40) + "!" }
        for _ in 0..<100 { #expect(!filter.matches(hostile)) }
        #expect(ContinuousClock.now - started < .seconds(2), "given up within its time limit, and not tried again")
        #expect(filter.gaveUp)
        #expect(filter.gaveUpMessage.contains("given up"))
    }

    @Test("which patterns run under the step budget: repeated groups holding a repetition or an alternation, three unbounded repetitions, back-references", arguments: [
        ("(a+)+$", true), ("(.*)*X", true), ("(a|aa)*", true), ("((ab)+c)*", true), (".*.*.*x", true), ("a{2,}b+c*", true), (#"(a)\1"#, true),
        ("item.[0-9]+9", false), (#"^https://api\."#, false), ("(?:items|entries)/[0-9]+", false), ("(ab)+c", false), ("[(+*]+x", false),
        ("a{2}b{3}", false), (".*x.*", false),
        // Quoting, comments and free spacing the scan cannot read with certainty (a review of 27 November).
        (#"(?#[)(\w+)+$"#, true), (#"\Q[\E(a+)+$"#, true), ("(?x)(a+) +$", true), (#"(a+\Q)\E?)+b"#, true),
    ])
    func risk(pattern: String, risky: Bool) {
        #expect(BacktrackingRisk.of(pattern) == risky)
    }
}
