/// Why a response is not stored (RFC 9111 §3).
public enum NotStorableReason: Sendable, Hashable, CustomStringConvertible {
    /// Only GET responses are stored.
    case methodNotCacheable(String)
    /// 1xx responses are not final.
    case statusNotFinal(Int)
    /// 206: CacheScope does not store partial content (no Range support).
    case partialContent
    /// 304 cannot be stored as a response of its own.
    case notModified
    /// `must-understand` with a status code this cache does not understand.
    case statusNotUnderstood(Int)
    /// Response `no-store`.
    case responseNoStore
    /// Request `no-store`.
    case requestNoStore
    /// Response `private` in a shared cache.
    case privateInSharedCache
    /// Request with `Authorization` in a shared cache, without `public`, `s-maxage` or `must-revalidate`.
    case authorizationInSharedCache
    /// `Vary: *`: no later request can ever match.
    case varyAsterisk
    /// No explicit freshness and a status that is not heuristically cacheable.
    case notCacheableStatus(Int)
    /// Neither freshness nor a validator: the entry could never be reused.
    case noFreshnessNorValidator

    public var description: String {
        switch self {
        case .methodNotCacheable(let method): return "method \(method) is not cacheable"
        case .statusNotFinal(let code): return "status \(code) is not final"
        case .partialContent: return "206 partial content (no Range support)"
        case .notModified: return "304 is not storable on its own"
        case .statusNotUnderstood(let code): return "must-understand and status \(code) not understood"
        case .responseNoStore: return "no-store"
        case .requestNoStore: return "request no-store"
        case .privateInSharedCache: return "private (shared cache)"
        case .authorizationInSharedCache: return "Authorization in request (shared cache)"
        case .varyAsterisk: return "Vary: *"
        case .notCacheableStatus(let code): return "status \(code) without explicit freshness"
        case .noFreshnessNorValidator: return "no freshness information and no validator"
        }
    }
}

/// Why a stored response must be revalidated before use (RFC 9111 §4.2, §4.3).
public enum RevalidationReason: Sendable, Hashable, CustomStringConvertible {
    /// The freshness lifetime has passed.
    case expired(staleBy: Double)
    /// Stale and `must-revalidate` (or `proxy-revalidate` / `s-maxage` in a shared cache).
    case mustRevalidate(staleBy: Double)
    /// Response `no-cache` (unqualified).
    case responseNoCache
    /// Response `Pragma: no-cache` without Cache-Control, read as `no-cache` for
    /// compatibility (RFC 9111 leaves response Pragma undefined; browsers and OkHttp do this).
    case responsePragmaNoCache
    /// Request `no-cache`.
    case requestNoCache
    /// Request `Pragma: no-cache` without Cache-Control (RFC 9111 §5.4).
    case requestPragmaNoCache
    /// Request `max-age=N` and the response is older.
    case requestMaxAge(limit: Int, age: Double)
    /// Request `min-fresh=N` and less freshness remains.
    case requestMinFresh(required: Int, remaining: Double)
    /// Freshness information is invalid or conflicting (RFC 9111 §4.2.1).
    case invalidFreshness(String)
    /// The policy revalidates every time (`reloadRevalidatingCacheData`).
    case policyAlwaysRevalidates
    /// Someone asked for a refresh (the dashboard's `r`).
    case refreshCommand

    public var description: String {
        switch self {
        case .expired(let staleBy): return "expired \(seconds(staleBy)) ago"
        case .mustRevalidate(let staleBy): return "stale \(seconds(staleBy)) and must-revalidate"
        case .responseNoCache: return "no-cache"
        case .responsePragmaNoCache: return "Pragma: no-cache"
        case .requestNoCache: return "request no-cache"
        case .requestPragmaNoCache: return "request Pragma: no-cache"
        case .requestMaxAge(let limit, let age): return "request max-age=\(limit) < age \(seconds(age))"
        case .requestMinFresh(let required, let remaining):
            return "request min-fresh=\(required) > \(seconds(remaining)) left"
        case .invalidFreshness(let detail): return detail
        case .policyAlwaysRevalidates: return "policy revalidate"
        case .refreshCommand: return "refresh requested"
        }
    }
}

/// Why nothing stored can be used.
public enum MissReason: Sendable, Hashable, CustomStringConvertible {
    /// Nothing is stored under the key.
    case notStored
    /// Responses are stored, but their `Vary` fields select other requests.
    case varyMismatch([String])
    /// The stored response must be revalidated but has no validator: fetched in full.
    case staleWithoutValidator(RevalidationReason)

    public var description: String {
        switch self {
        case .notStored: return "not in cache"
        case .varyMismatch(let names): return "Vary mismatch: " + names.map(displayFieldName).joined(separator: ", ")
        case .staleWithoutValidator(let reason): return "\(reason), no validator"
        }
    }
}

/// Why the cache is not consulted at all.
public enum BypassReason: Sendable, Hashable, CustomStringConvertible {
    /// Only GET and HEAD are answered from the cache.
    case methodNotCacheable(String)
    /// The policy ignores stored data.
    case policy(CachePolicy)
    /// The request has no absolute URI to key it by.
    case noCacheKey
    /// A GET or HEAD with content (RFC 9110 §9.3.1: content has no defined meaning there, but
    /// an origin may answer by it, and the key leaves it out): forwarded, neither answered
    /// from the cache nor stored, so it cannot put its answer where a bodiless GET finds it.
    case requestContent(String)

    public var description: String {
        switch self {
        case .methodNotCacheable(let method): return "method \(method)"
        case .policy(let policy): return "policy \(policy.commandLineName)"
        case .noCacheKey: return "no absolute URI"
        case .requestContent(let method): return "a \(method) with content (its answer may depend on it)"
        }
    }
}

/// Why a stale response is served without (or before) contacting the origin.
public enum StaleReason: Sendable, Hashable, CustomStringConvertible {
    /// `stale-while-revalidate=N` covers the staleness; a background revalidation follows.
    case staleWhileRevalidate(window: Int)
    /// `stale-if-error=N` covers the staleness and the origin failed.
    case staleIfError(window: Int, failure: String)
    /// The request's `max-stale` accepts it.
    case maxStale
    /// The policy accepts stored data however stale.
    case policy(CachePolicy)

    public var description: String {
        switch self {
        case .staleWhileRevalidate: return "stale-while-revalidate"
        case .staleIfError(_, let failure): return "stale-if-error (\(failure))"
        case .maxStale: return "request max-stale"
        case .policy(let policy): return "policy \(policy.commandLineName)"
        }
    }
}

/// Why no response can be produced without the network, which may not be used.
public enum UnsatisfiableReason: Sendable, Hashable, CustomStringConvertible {
    /// Request `only-if-cached` (answered with 504, RFC 9111 §5.2.1.7).
    case onlyIfCached
    /// Policy `returnCacheDataDontLoad` and nothing stored.
    case policyDontLoad

    public var description: String {
        switch self {
        case .onlyIfCached: return "only-if-cached and nothing usable stored"
        case .policyDontLoad: return "policy cache-only and nothing stored"
        }
    }
}

func seconds(_ value: Double) -> String {
    // A figure past Int's range (an edited log's) is written as it is, not rounded.
    guard let rounded = Int(exactly: value.rounded()) else { return "\(value)s" }
    return rounded >= 3600 && rounded % 3600 == 0 ? "\(rounded / 3600)h" : "\(rounded)s"
}

/// `accept-language` → `Accept-Language`, for messages.
func displayFieldName(_ name: String) -> String {
    name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "-")
}
