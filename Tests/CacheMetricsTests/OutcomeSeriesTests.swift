@testable import CacheMetrics
import HTTPCaching
import Testing

@Suite("Metrics per outcome")
struct OutcomeSeriesTests {
    @Test("each outcome finds its own series (positions follow allCases)")
    func eachOutcomeItsOwn() {
        for (index, outcome) in CacheOutcome.allCases.enumerated() {
            #expect(OutcomeSeries<Int>.position(of: outcome) == index, "\(outcome)")
        }
        let series = OutcomeSeries { $0.rawValue }
        for outcome in CacheOutcome.allCases { #expect(series[outcome] == outcome.rawValue) }
    }
}
