public import HTTPCaching

/// A ``LatencyHistogram`` per outcome, for the Stats view's histogram and its p50 / p95 / p99
/// per outcome. Recording one latency touches one bucket of one histogram: no allocation.
public struct OutcomeLatencies: Sendable, Hashable {
    private var histograms = [LatencyHistogram](repeating: LatencyHistogram(), count: CacheOutcome.allCases.count)

    /// No latencies yet.
    public init() {}

    /// The latencies of requests that finished with `outcome`.
    public subscript(outcome: CacheOutcome) -> LatencyHistogram { histograms[outcome.position] }

    /// Records one finished request's latency in seconds under its outcome.
    mutating func record(_ seconds: Double, outcome: CacheOutcome) {
        histograms[outcome.position].record(seconds)
    }
}
