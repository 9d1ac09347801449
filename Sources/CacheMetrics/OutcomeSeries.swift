import HTTPCaching

/// One metric per ``CacheOutcome`` (a series of the `outcome` label), found by the outcome's
/// position rather than by hashing it: a fresh hit looks up two of these.
struct OutcomeSeries<Metric: Sendable>: Sendable {
    private let metrics: [Metric]

    /// Makes the series of every outcome, in ``CacheOutcome/allCases`` order.
    init(_ make: (CacheOutcome) -> Metric) {
        metrics = CacheOutcome.allCases.map(make)
    }

    subscript(outcome: CacheOutcome) -> Metric { metrics[Self.position(of: outcome)] }

    /// The outcome's place in `allCases` (checked against it by a test).
    static func position(of outcome: CacheOutcome) -> Int {
        switch outcome {
        case .hit: 0
        case .stale: 1
        case .revalidated: 2
        case .modified: 3
        case .miss: 4
        case .bypass: 5
        case .error: 6
        }
    }
}
