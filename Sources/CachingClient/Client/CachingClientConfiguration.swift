public import CacheStore
public import Foundation
public import HTTPCaching
public import HTTPTypes
public import SharedTier

/// What the `willCache` hook decides for a response about to be stored, like
/// `urlSession(_:dataTask:willCacheResponse:completionHandler:)`.
public enum WillCacheDecision: Sendable {
    /// Store as the rules allow, with this storage policy.
    case store(StoragePolicy)
    /// Store this response and body instead (e.g. with headers removed), with this policy.
    case replace(HTTPResponse, Data, StoragePolicy)
}

/// Everything a ``CachingClient`` can be configured with. Every property has a default.
///
/// ```swift
/// var configuration = CachingClientConfiguration()
/// configuration.store.directory = URL(fileURLWithPath: "/var/cache/myapp")
/// configuration.defaultPolicy = .useProtocolCachePolicy
/// let client = try await CachingClient(configuration: configuration)
/// ```
public struct CachingClientConfiguration: Sendable {
    /// Capacities, directory, namespaces and encryption of the store.
    public var store: StoreConfiguration
    /// The policy for requests that do not name one. Default `useProtocolCachePolicy`.
    public var defaultPolicy: CachePolicy
    /// Private (default, like URLCache) or shared (for a proxy).
    public var mode: CacheMode
    /// Whether heuristic freshness (10% of the time since Last-Modified) is allowed. Default on.
    public var heuristicFreshness: Bool
    /// A floor under every response's freshness lifetime, like a CDN's "minimum TTL"
    /// (``CacheRulesConfiguration/minimumFreshness``). Default zero: RFC 9111 as written.
    public var minimumFreshness: Duration = .zero
    /// Whether responses' `no-cache` is ignored, so they are reused while fresh
    /// (``CacheRulesConfiguration/ignoresResponseNoCache``). Default `false`.
    public var ignoresResponseNoCache = false
    /// Called before a storable response is stored; may forbid, restrict or replace it.
    public var willCache: (@Sendable (HTTPRequest, HTTPResponse) async -> WillCacheDecision)?
    /// The network transport; `nil` means ``AsyncHTTPClientTransport``.
    public var transport: (any Transport)?
    /// With no ``transport`` given, how many connections the client's own
    /// ``AsyncHTTPClientTransport`` opens to one origin at most; requests past them wait for
    /// one to be free (for the connect timeout, then fail). Default 8, AsyncHTTPClient's; a
    /// proxy, asked by many clients at once, needs more (``CachingProxy`` sets 256).
    public var connectionsPerOrigin = AsyncHTTPClientTransport.defaultConnectionsPerOrigin
    /// How long one origin request may take. Default 30 seconds.
    public var requestTimeout: Duration
    /// Whether redirects are followed (each hop goes through the cache). Default `true`.
    public var followRedirects: Bool
    /// The most redirects followed for one request. Default 10.
    public var maximumRedirects: Int
    /// The most often `storeStats` events are published: within this long after the store
    /// changes, while someone listens; never while nothing changes. Default 1 s.
    public var statsInterval: Duration
    /// The wall clock; tests and simulations inject their own. Default `Date.init`.
    public var now: @Sendable () -> Date
    /// A shared tier on PostgreSQL behind memory and disk, shared with every other instance
    /// configured with the same database; `nil` (the default) for none. See docs/shared-tier.md.
    public var sharedTier: SharedTierConfiguration?

    /// Creates the default configuration: a memory-only store of 32 MiB, private mode.
    public init(
        store: StoreConfiguration = StoreConfiguration(),
        defaultPolicy: CachePolicy = .useProtocolCachePolicy,
        mode: CacheMode = .private,
        heuristicFreshness: Bool = true,
        willCache: (@Sendable (HTTPRequest, HTTPResponse) async -> WillCacheDecision)? = nil,
        transport: (any Transport)? = nil,
        requestTimeout: Duration = .seconds(30),
        followRedirects: Bool = true,
        maximumRedirects: Int = 10,
        statsInterval: Duration = .seconds(1),
        now: @escaping @Sendable () -> Date = { Date() },
        sharedTier: SharedTierConfiguration? = nil
    ) {
        self.store = store
        self.defaultPolicy = defaultPolicy
        self.mode = mode
        self.heuristicFreshness = heuristicFreshness
        self.willCache = willCache
        self.transport = transport
        self.requestTimeout = requestTimeout
        self.followRedirects = followRedirects
        self.maximumRedirects = maximumRedirects
        self.statsInterval = statsInterval
        self.now = now
        self.sharedTier = sharedTier
    }

    /// The caching rules this configuration implies.
    var rules: CacheRules { rules(mode: mode) }

    /// The caching rules this configuration implies in `mode`: a shared tier's writes are
    /// judged as a shared cache judges them, whatever the client's own mode.
    func rules(mode: CacheMode) -> CacheRules {
        CacheRules(configuration: CacheRulesConfiguration(
            mode: mode, heuristicFreshness: heuristicFreshness, minimumFreshness: minimumFreshness.inSeconds,
            ignoresResponseNoCache: ignoresResponseNoCache))
    }
}
