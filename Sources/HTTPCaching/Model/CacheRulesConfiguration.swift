/// Whether the cache is private to one user (like URLCache in an app) or shared (a proxy).
public enum CacheMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// A private cache: may store `private` responses; ignores `s-maxage` and `proxy-revalidate`.
    case `private`
    /// A shared cache: honours `s-maxage` and `proxy-revalidate`; never stores `private`
    /// responses nor (without `public`, `s-maxage` or `must-revalidate`) answers to requests
    /// with `Authorization`.
    case shared
}

/// The knobs of the caching rules. The defaults suit an app's private cache.
public struct CacheRulesConfiguration: Sendable, Hashable {
    /// Private (default) or shared cache.
    public var mode: CacheMode
    /// Whether a response without explicit freshness may get a heuristic lifetime from its
    /// `Last-Modified` (RFC 9111 §4.2.2). Default `true`.
    public var heuristicFreshness: Bool
    /// The fraction of the time since `Last-Modified` used as heuristic lifetime. Default 0.1.
    public var heuristicFraction: Double
    /// The cap on a heuristic lifetime, in seconds. Default 86,400 (one day).
    public var heuristicLimit: Double
    /// A floor under every freshness lifetime, in seconds, as a CDN's "minimum TTL" setting
    /// gives: a response whose lifetime is shorter (or absent) counts as fresh this long.
    /// `no-store`, `no-cache` and `must-revalidate` still apply. Default 0 (RFC 9111 as written).
    public var minimumFreshness: Double
    /// Whether a response's `no-cache` (and `Pragma: no-cache` standing in for it) is ignored,
    /// so such a response is reused while fresh instead of being revalidated every time, as
    /// some CDNs can be configured to do. Default `false` (RFC 9111 as written).
    public var ignoresResponseNoCache: Bool

    /// Creates a configuration; every parameter has the documented default.
    public init(
        mode: CacheMode = .private,
        heuristicFreshness: Bool = true,
        heuristicFraction: Double = 0.1,
        heuristicLimit: Double = 86_400,
        minimumFreshness: Double = 0,
        ignoresResponseNoCache: Bool = false
    ) {
        self.mode = mode
        self.heuristicFreshness = heuristicFreshness
        self.heuristicFraction = heuristicFraction
        self.heuristicLimit = heuristicLimit
        self.minimumFreshness = minimumFreshness
        self.ignoresResponseNoCache = ignoresResponseNoCache
    }
}
