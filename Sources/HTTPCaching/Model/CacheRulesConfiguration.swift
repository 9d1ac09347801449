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

    /// Creates a configuration; every parameter has the documented default.
    public init(
        mode: CacheMode = .private,
        heuristicFreshness: Bool = true,
        heuristicFraction: Double = 0.1,
        heuristicLimit: Double = 86_400
    ) {
        self.mode = mode
        self.heuristicFreshness = heuristicFreshness
        self.heuristicFraction = heuristicFraction
        self.heuristicLimit = heuristicLimit
    }
}
