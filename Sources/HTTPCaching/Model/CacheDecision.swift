/// What the cache does with one request, decided before any network traffic, with the reason.
///
/// `candidate` values index the array of stored responses passed to
/// ``CacheRules/decide(request:policy:candidates:now:)``.
public enum CacheDecision: Sendable, Hashable {
    /// Serve the stored response: it is fresh. Outcome `hit`.
    case fresh(CacheHit)
    /// Serve the stored response although stale (max-stale or a policy). Outcome `stale`.
    case stale(StaleHit)
    /// Serve the stale response now and revalidate it in the background. Outcome `stale`.
    case staleWhileRevalidate(StaleHit)
    /// Send a conditional request; a 304 makes the outcome `revalidated`, a 200 `modified`.
    case revalidate(Revalidation)
    /// Nothing usable is stored: fetch and (if storable) store. Outcome `miss`.
    case miss(Miss)
    /// Do not consult the cache: fetch. Outcome `bypass`.
    case bypass(BypassReason)
    /// The network may not be used and nothing usable is stored. Outcome `error` (504).
    case unsatisfiable(UnsatisfiableReason)

    /// The outcome word when the decision is final without the network; `nil` while the
    /// outcome depends on the origin's answer (revalidate, miss, bypass).
    public var immediateOutcome: CacheOutcome? {
        switch self {
        case .fresh: return .hit
        case .stale, .staleWhileRevalidate: return .stale
        case .unsatisfiable: return .error
        case .revalidate, .miss, .bypass: return nil
        }
    }

    /// The lookup verdict as events carry it. A stale stored response that must be fetched
    /// again in full (it has no validator) is ``LookupVerdict/stale``: something was stored,
    /// it was too old.
    public var verdict: LookupVerdict {
        switch self {
        case .fresh: return .fresh
        case .stale, .staleWhileRevalidate, .revalidate: return .stale
        case .miss(let miss): return miss.candidate == nil ? .miss : .stale
        case .unsatisfiable: return .miss
        case .bypass: return .bypass
        }
    }

    /// The reason in words, e.g. `max-age=60`, `expired 3s ago`, `Vary mismatch: Accept-Language`.
    public var reason: String {
        switch self {
        case .fresh(let hit): return hit.immutableSkippedRevalidation ? "immutable, \(hit.freshness.source)" : "\(hit.freshness.source)"
        case .stale(let hit), .staleWhileRevalidate(let hit): return hit.reason.description
        case .revalidate(let revalidation): return revalidation.reason.description
        case .miss(let miss): return miss.reason.description
        case .bypass(let reason): return reason.description
        case .unsatisfiable(let reason): return reason.description
        }
    }

    /// The index of the stored response the decision uses, if any.
    public var candidate: Int? {
        switch self {
        case .fresh(let hit): return hit.candidate
        case .stale(let hit), .staleWhileRevalidate(let hit): return hit.candidate
        case .revalidate(let revalidation): return revalidation.candidate
        case .miss(let miss): return miss.candidate
        case .bypass, .unsatisfiable: return nil
        }
    }
}

/// A fresh stored response to serve.
public struct CacheHit: Sendable, Hashable {
    /// Index of the stored response among the candidates.
    public let candidate: Int
    /// Its freshness now.
    public let freshness: Freshness
    /// Whether `immutable` (RFC 8246) spared a revalidation the request asked for.
    public let immutableSkippedRevalidation: Bool

    /// Creates a hit.
    public init(candidate: Int, freshness: Freshness, immutableSkippedRevalidation: Bool = false) {
        self.candidate = candidate
        self.freshness = freshness
        self.immutableSkippedRevalidation = immutableSkippedRevalidation
    }
}

/// A stale stored response that will be served.
public struct StaleHit: Sendable, Hashable {
    /// Index of the stored response among the candidates.
    public let candidate: Int
    /// Its freshness now (negative time to live).
    public let freshness: Freshness
    /// Why serving it stale is allowed.
    public let reason: StaleReason

    /// Creates a stale hit.
    public init(candidate: Int, freshness: Freshness, reason: StaleReason) {
        self.candidate = candidate
        self.freshness = freshness
        self.reason = reason
    }
}

/// A conditional request to send for a stored response.
public struct Revalidation: Sendable, Hashable {
    /// Index of the stored response among the candidates.
    public let candidate: Int
    /// Its freshness now.
    public let freshness: Freshness
    /// Why it must be revalidated.
    public let reason: RevalidationReason
    /// The validators to send.
    public let conditionalHeaders: ConditionalHeaders

    /// Creates a revalidation.
    public init(candidate: Int, freshness: Freshness, reason: RevalidationReason, conditionalHeaders: ConditionalHeaders) {
        self.candidate = candidate
        self.freshness = freshness
        self.reason = reason
        self.conditionalHeaders = conditionalHeaders
    }
}

/// A fetch because nothing stored can be used.
public struct Miss: Sendable, Hashable {
    /// Why nothing stored can be used.
    public let reason: MissReason
    /// A stored response that matched but could not be revalidated (no validator); it may
    /// still be served under `stale-if-error` when the fetch fails.
    public let candidate: Int?

    /// Creates a miss.
    public init(reason: MissReason, candidate: Int? = nil) {
        self.reason = reason
        self.candidate = candidate
    }
}
