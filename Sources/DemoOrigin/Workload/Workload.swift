// MARK: - The request sequence

/// Traffic for the demo origin: an endless, seed-determined sequence of ``WorkloadRequest``s,
/// and ``run(send:)`` to send them at a steady rate.
///
/// Each request picks an endpoint kind by the mix weights, then a URL of that kind by Zipf
/// popularity, so a few URLs are hot (cache hits) and a long tail is cold (misses). The
/// workload never touches the network: the caller's `send` does.
///
/// ```swift
/// let workload = try Workload(baseURL: origin.baseURL, configuration: .demo)
/// let first = Array(workload.prefix(5))        // same five for the same seed
/// await workload.run { request in await client.send(request) }
/// ```
public struct Workload: Sequence, Sendable {
    /// The base URL requests are made against, without a trailing slash.
    public let baseURL: String
    /// The validated configuration.
    public let configuration: WorkloadConfiguration
    /// Kinds with a positive weight, in `EndpointKind.allCases` order (never dictionary order,
    /// which changes between processes and would break determinism).
    let kinds: [EndpointKind]
    /// Cumulative normalised weights parallel to `kinds`; the last is exactly 1.
    let cumulativeWeights: [Double]
    /// Popularity of the URLs within one kind.
    let popularity: ZipfDistribution

    /// Builds a workload against `baseURL` (e.g. `http://127.0.0.1:8080`).
    ///
    /// - Throws: ``WorkloadError`` for a base URL that is not http(s) or an invalid setting.
    public init(baseURL: String, configuration: WorkloadConfiguration = .demo) throws(WorkloadError) {
        guard baseURL.hasPrefix("http://") || baseURL.hasPrefix("https://") else {
            throw .invalidBaseURL(baseURL)
        }
        try configuration.validate()
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.configuration = configuration
        let weighted: [(EndpointKind, Double)] = EndpointKind.allCases.compactMap { kind in
            guard let weight = configuration.mix[kind], weight > 0 else { return nil }
            return (kind, weight)
        }
        let total = weighted.reduce(0) { $0 + $1.1 }
        var running = 0.0
        var cumulative = weighted.map { entry in
            running += entry.1
            return running / total
        }
        cumulative[cumulative.count - 1] = 1
        self.kinds = weighted.map(\.0)
        self.cumulativeWeights = cumulative
        self.popularity = try ZipfDistribution(count: configuration.universeSize, exponent: configuration.zipfExponent)
    }

    /// An iterator over the endless request sequence, starting from the configured seed.
    public func makeIterator() -> Iterator {
        Iterator(workload: self, generator: SplitMix64(seed: configuration.seed))
    }

    /// Produces the requests of a ``Workload``, in order; never ends.
    public struct Iterator: IteratorProtocol, Sendable {
        let workload: Workload
        var generator: SplitMix64

        /// The next request (never `nil`).
        public mutating func next() -> WorkloadRequest? {
            let u = generator.nextUnitInterval()
            let kind = workload.kinds[workload.cumulativeWeights.firstIndex { $0 > u } ?? workload.kinds.count - 1]
            let rank = workload.popularity.sample(using: &generator)
            return workload.request(kind: kind, rank: rank, generator: &generator)
        }
    }
}
