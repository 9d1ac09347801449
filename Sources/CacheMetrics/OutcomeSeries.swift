import HTTPCaching

/// One metric per ``CacheOutcome`` (a series of the `outcome` label), found by the outcome's
/// position rather than by hashing it: a fresh hit looks up two of these.
struct OutcomeSeries<Metric: Sendable>: Sendable {
    private let metrics: [Metric]

    /// Makes the series of every outcome, in ``CacheOutcome/allCases`` order.
    init(_ make: (CacheOutcome) -> Metric) {
        metrics = CacheOutcome.allCases.map(make)
    }

    subscript(outcome: CacheOutcome) -> Metric { metrics[outcome.position] }
}
