// MARK: - What traffic a workload generates

/// The settings of a ``Workload``: which endpoints, how popular each URL is, how fast and how
/// many at once.
///
/// Start from ``demo`` and change what you need:
/// ```swift
/// var configuration = WorkloadConfiguration.demo
/// configuration.requestsPerSecond = 100
/// configuration.duration = .seconds(30)
/// ```
public struct WorkloadConfiguration: Sendable, Equatable {
    /// Relative weight of each endpoint kind; kinds missing or at 0 are never requested.
    public var mix: [EndpointKind: Double]
    /// Target request rate (requests started per second). Default in ``demo``: 20.
    public var requestsPerSecond: Double
    /// Distinct URLs per endpoint kind (the popularity ranks). Default in ``demo``: 40.
    public var universeSize: Int
    /// Zipf exponent s for URL popularity, P(rank k) ∝ 1/kˢ. Default in ``demo``: 1.1.
    public var zipfExponent: Double
    /// Most requests in flight at once; pacing waits when the limit is reached. Default: 8.
    public var concurrency: Int
    /// Share of `/items/{id}` requests that are POSTs (which invalidate). Default: 0.15.
    public var itemWriteShare: Double
    /// `Accept-Language` values picked at random for `/vary/lang`. Default: en, fr, de, ja.
    public var acceptLanguages: [String]
    /// Seed of the ``SplitMix64`` generator: the same seed gives the same request sequence.
    public var seed: UInt64
    /// How long ``Workload/run(send:)`` runs; `nil` (the default) runs until cancelled.
    public var duration: Duration?

    /// Creates a configuration; every parameter defaults to the ``demo`` value.
    public init(
        mix: [EndpointKind: Double] = WorkloadConfiguration.demoMix,
        requestsPerSecond: Double = 20,
        universeSize: Int = 40,
        zipfExponent: Double = 1.1,
        concurrency: Int = 8,
        itemWriteShare: Double = 0.15,
        acceptLanguages: [String] = ["en", "fr", "de", "ja"],
        seed: UInt64 = 42,
        duration: Duration? = nil
    ) {
        self.mix = mix
        self.requestsPerSecond = requestsPerSecond
        self.universeSize = universeSize
        self.zipfExponent = zipfExponent
        self.concurrency = concurrency
        self.itemWriteShare = itemWriteShare
        self.acceptLanguages = acceptLanguages
        self.seed = seed
        self.duration = duration
    }

    /// A lively mix for the dashboard demo: mostly cacheable URLs with short lifetimes (hits,
    /// then stale entries and 304 revalidations), plus no-store bypasses, Vary variants,
    /// rotating content, stale-while-revalidate, failing origins, slow and large responses,
    /// redirects, error statuses and invalidating POSTs.
    public static let demo = WorkloadConfiguration()

    /// The weights of ``demo``.
    public static let demoMix: [EndpointKind: Double] = [
        .maxAge: 20, .sMaxAge: 3, .noCache: 8, .lastModified: 5, .noStore: 5, .privateMaxAge: 3,
        .varyLanguage: 6, .rotating: 5, .immutable: 4, .staleWhileRevalidate: 6, .staleIfError: 3,
        .slow: 3, .large: 3, .redirect: 3, .status: 3, .items: 8, .auth: 2, .cookie: 2, .expires: 4,
    ]

    /// Checks every setting.
    ///
    /// - Throws: the first ``WorkloadError`` found.
    public func validate() throws(WorkloadError) {
        guard requestsPerSecond.isFinite, requestsPerSecond > 0 else { throw .invalidRate(requestsPerSecond) }
        guard concurrency >= 1 else { throw .invalidConcurrency(concurrency) }
        guard (1...ZipfDistribution.maximumCount).contains(universeSize) else {
            throw .invalidUniverseSize(universeSize)
        }
        guard zipfExponent.isFinite, (0...10).contains(zipfExponent) else { throw .invalidZipfExponent(zipfExponent) }
        guard itemWriteShare.isFinite, (0...1).contains(itemWriteShare) else { throw .invalidWriteShare(itemWriteShare) }
        for kind in EndpointKind.allCases {
            let weight = mix[kind] ?? 0
            guard weight.isFinite, weight >= 0 else { throw .invalidWeight(kind, weight) }
        }
        guard mix.values.contains(where: { $0 > 0 }) else { throw .emptyMix }
        if (mix[.varyLanguage] ?? 0) > 0, acceptLanguages.isEmpty { throw .emptyAcceptLanguages }
        if let duration, duration <= .zero { throw .invalidDuration(duration) }
    }
}
