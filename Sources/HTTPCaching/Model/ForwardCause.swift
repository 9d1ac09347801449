/// Why a request went to the origin instead of being answered from the cache, grouped as
/// RFC 9211's `fwd` parameter of `Cache-Status` groups the causes (§2.2).
public enum ForwardCause: Sendable, Hashable {
    /// Nothing is stored for the URI (`uri-miss`).
    case notStored
    /// Responses are stored for the URI, but their `Vary` fields select other requests
    /// (`vary-miss`).
    case varyMismatch
    /// A stored response was selected, but it is stale, or its own directives (`no-cache`,
    /// `must-revalidate`) require the origin (`stale`).
    case stale
    /// A stored response could have been used, but the request's directives (`no-cache`,
    /// `max-age`, `min-fresh`) or the cache policy did not allow it (`request`).
    case request
    /// The method is not answered from the cache (`method`).
    case method
}

extension RevalidationReason {
    /// Whether the request (or the policy, or a refresh command) asked for the origin, rather
    /// than the stored response's own state.
    public var forwardCause: ForwardCause {
        switch self {
        case .requestNoCache, .requestPragmaNoCache, .requestMaxAge, .requestMinFresh, .policyAlwaysRevalidates, .refreshCommand:
            .request
        case .expired, .mustRevalidate, .responseNoCache, .responsePragmaNoCache, .invalidFreshness:
            .stale
        }
    }
}

extension CacheDecision {
    /// Why this decision sends the request to the origin; `nil` for one the cache answers.
    public var forwardCause: ForwardCause? {
        switch self {
        // RFC 9211 keeps `request` for a response that was fresh: a stale one is `stale`,
        // whatever the request asked besides.
        case .revalidate(let revalidation): revalidation.freshness.isFresh ? revalidation.reason.forwardCause : .stale
        case .miss(let miss):
            switch miss.reason {
            case .notStored: .notStored
            case .varyMismatch: .varyMismatch
            case .staleWithoutValidator(let reason): reason.forwardCause
            }
        case .bypass(.methodNotCacheable): .method
        case .bypass: .request
        case .fresh, .stale, .staleWhileRevalidate, .unsatisfiable: nil
        }
    }
}
