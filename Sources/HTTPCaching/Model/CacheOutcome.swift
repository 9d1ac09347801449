/// What happened to one request, in the words used everywhere in CacheScope
/// (events, command line, dashboard, logs).
public enum CacheOutcome: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Served from the cache, fresh, without contacting the origin.
    case hit
    /// Served from the cache although stale (stale-while-revalidate, stale-if-error,
    /// max-stale, or a policy that accepts stale data).
    case stale
    /// The origin answered a conditional request with 304; the stored body was served.
    case revalidated
    /// The origin answered a conditional request with a new response (usually 200).
    case modified
    /// Nothing usable was stored; the response came from the origin.
    case miss
    /// The cache was not consulted (method, policy or request directives).
    case bypass
    /// No response could be produced (origin failure without a usable stale response,
    /// or `only-if-cached` / `returnCacheDataDontLoad` with nothing stored).
    case error

    public var description: String { rawValue }

    /// Whether the body came from the cache (hit, stale or revalidated).
    public var servedFromCache: Bool { self == .hit || self == .stale || self == .revalidated }

    /// The outcome's place in ``allCases``, without a search: for tables with one slot per
    /// outcome (the dashboard's latencies, the metrics' series), looked up on every request.
    public var position: Int {
        switch self {
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
