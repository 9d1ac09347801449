/// How one request may use the cache: the cases of `URLRequest.CachePolicy`, with the same
/// meaning. A per-request policy overrides the client's default, as `URLRequest.cachePolicy`
/// overrides `URLSessionConfiguration.requestCachePolicy`.
///
/// docs/policies.md tabulates what each policy reads, sends and writes.
public enum CachePolicy: String, Sendable, Hashable, CaseIterable, Codable {
    /// Follow HTTP caching rules (RFC 9111): fresh hits, revalidation of stale entries.
    case useProtocolCachePolicy
    /// Ignore stored responses; fetch from the origin; store what comes back.
    case reloadIgnoringLocalCacheData
    /// Like ``reloadIgnoringLocalCacheData`` and also send `Cache-Control: no-cache` and
    /// `Pragma: no-cache` so intermediate caches do not answer either.
    case reloadIgnoringLocalAndRemoteCacheData
    /// Use any stored response, however stale, without contacting the origin; fetch only when
    /// nothing is stored.
    case returnCacheDataElseLoad
    /// Use any stored response, however stale; never touch the network. Nothing stored is an
    /// error (``CacheDecision/unsatisfiable(_:)``).
    case returnCacheDataDontLoad
    /// Always revalidate a stored response with the origin before using it (a conditional
    /// request), except a fresh `immutable` one (RFC 8246).
    case reloadRevalidatingCacheData

    /// The short name used on the command line (`--policy`) and in events.
    public var commandLineName: String {
        switch self {
        case .useProtocolCachePolicy: return "protocol"
        case .reloadIgnoringLocalCacheData: return "reload"
        case .reloadIgnoringLocalAndRemoteCacheData: return "reload-all"
        case .returnCacheDataElseLoad: return "cache-else-load"
        case .returnCacheDataDontLoad: return "cache-only"
        case .reloadRevalidatingCacheData: return "revalidate"
        }
    }

    /// Parses a command-line name or the full case name; `nil` when neither matches.
    public init?(name: String) {
        guard let policy = Self.allCases.first(where: { $0.commandLineName == name || $0.rawValue == name }) else {
            return nil
        }
        self = policy
    }
}
