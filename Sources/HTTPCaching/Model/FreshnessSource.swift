/// Where a stored response's freshness lifetime comes from (RFC 9111 §4.2.1).
public enum FreshnessSource: Sendable, Hashable, CustomStringConvertible {
    /// `s-maxage=N` (shared caches only).
    case sharedMaxAge(Int)
    /// `max-age=N`.
    case maxAge(Int)
    /// `Expires` minus `Date`, in seconds.
    case expires(Double)
    /// A heuristic: a fraction of the time since `Last-Modified` (RFC 9111 §4.2.2).
    case heuristic(Double)
    /// No explicit freshness and no heuristic allowed: lifetime zero.
    case none
    /// Freshness information that is invalid or conflicting: the response counts as stale.
    case invalid(String)
    /// The configured minimum (``CacheRulesConfiguration/minimumFreshness``), in seconds,
    /// raised over the shorter lifetime the response itself gave.
    indirect case minimum(Double, over: FreshnessSource)

    public var description: String {
        switch self {
        case .sharedMaxAge(let seconds): return "s-maxage=\(seconds)"
        case .maxAge(let seconds): return "max-age=\(seconds)"
        case .expires(let seconds): return "Expires (\(Int(seconds.rounded()))s after Date)"
        case .heuristic(let seconds): return "heuristic \(Int(seconds.rounded()))s (10% of time since Last-Modified)"
        case .none: return "no freshness information"
        case .invalid(let detail): return detail
        case .minimum(let seconds, let over): return "minimum TTL \(Int(seconds.rounded()))s (over \(over))"
        }
    }
}

/// The freshness of a stored response at one instant.
public struct Freshness: Sendable, Hashable {
    /// The freshness lifetime in seconds.
    public let lifetime: Double
    /// The current age in seconds (RFC 9111 §4.2.3).
    public let age: Double
    /// Where the lifetime comes from.
    public let source: FreshnessSource

    /// Seconds of freshness left: positive while fresh, negative once stale.
    public var timeToLive: Double { lifetime - age }
    /// Whether the response is fresh (`lifetime > age`).
    public var isFresh: Bool { lifetime > age }
    /// How long the response has been stale (0 while fresh).
    public var staleness: Double { max(0, age - lifetime) }
}
