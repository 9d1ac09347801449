public import Foundation
public import HTTPTypes

extension CacheRules {
    /// Decides how to answer `request` given the responses stored under its primary key
    /// (RFC 9111 §4). `candidates` may be in any order; `now` is the caller's clock.
    public func decide(
        request: HTTPRequest, policy: CachePolicy, candidates: [StoredResponse], now: Date
    ) -> CacheDecision {
        decide(request: request, key: CacheKey(request), policy: policy, candidates: candidates, now: now)
    }

    /// ``decide(request:policy:candidates:now:)`` for a caller that has already computed the
    /// request's key (`CacheKey(request)`), so it is not normalised twice per request.
    /// `requestHasContent`: the request carries a body (``BypassReason/requestContent(_:)``).
    public func decide(
        request: HTTPRequest, key: CacheKey?, policy: CachePolicy, candidates: [StoredResponse], now: Date,
        requestHasContent: Bool = false
    ) -> CacheDecision {
        let method = request.method.rawValue
        // Nothing may be served to these: one that forbids the network gets nothing, and is
        // never sent (RFC 9111 §5.2.1.7: a 504 for `only-if-cached`).
        guard method == "GET" || method == "HEAD" else {
            return unsatisfiableOffline(policy, onlyIfCached: requestDirectives(request).0.onlyIfCached) ?? .bypass(.methodNotCacheable(method))
        }
        if requestHasContent {
            return unsatisfiableOffline(policy, onlyIfCached: requestDirectives(request).0.onlyIfCached) ?? .bypass(.requestContent(method))
        }
        guard key != nil else { return .bypass(.noCacheKey) }
        switch policy {
        case .reloadIgnoringLocalCacheData, .reloadIgnoringLocalAndRemoteCacheData:
            return .bypass(.policy(policy))
        default:
            break
        }
        let (requestCC, pragmaNoCache) = requestDirectives(request)
        let selection = select(from: candidates, for: request.headerFields)
        guard let index = selection.index else {
            if let offline = unsatisfiableOffline(policy, onlyIfCached: requestCC.onlyIfCached) { return offline }
            return .miss(Miss(reason: selection.mismatched.isEmpty ? .notStored : .varyMismatch(selection.mismatched), candidate: nil))
        }
        let stored = candidates[index]
        let freshness = freshness(of: stored, now: now)
        switch policy {
        case .returnCacheDataElseLoad, .returnCacheDataDontLoad:
            if freshness.isFresh {
                return .fresh(CacheHit(candidate: index, freshness: freshness, immutableSkippedRevalidation: false))
            }
            return .stale(StaleHit(candidate: index, freshness: freshness, reason: .policy(policy)))
        case .reloadRevalidatingCacheData:
            if freshness.isFresh, stored.cacheControl.immutable {
                return .fresh(CacheHit(candidate: index, freshness: freshness, immutableSkippedRevalidation: true))
            }
            return revalidateOrMiss(index, candidates, freshness, .policyAlwaysRevalidates, requestCC)
        default:
            return protocolDecision(index, candidates, freshness, requestCC, pragmaNoCache)
        }
    }

    /// The decision for a request the store cannot answer when it forbids the network
    /// (policy `returnCacheDataDontLoad`, or `only-if-cached`); `nil` when it does not.
    private func unsatisfiableOffline(_ policy: CachePolicy, onlyIfCached: Bool) -> CacheDecision? {
        if policy == .returnCacheDataDontLoad { return .unsatisfiable(.policyDontLoad) }
        if onlyIfCached { return .unsatisfiable(.onlyIfCached) }
        return nil
    }

    /// The RFC 9111 §4.2 / §4.3 decision for `useProtocolCachePolicy`.
    private func protocolDecision(
        _ index: Int, _ candidates: [StoredResponse], _ freshness: Freshness,
        _ requestCC: CacheControl, _ pragmaNoCache: Bool
    ) -> CacheDecision {
        let stored = candidates[index]
        let responseCC = stored.cacheControl
        let honoursNoCache = !configuration.ignoresResponseNoCache
        if honoursNoCache, responseCC.noCache == .unqualified {
            return revalidateOrMiss(index, candidates, freshness, .responseNoCache, requestCC)
        }
        if honoursNoCache, stored.pragmaNoCache {
            return revalidateOrMiss(index, candidates, freshness, .responsePragmaNoCache, requestCC)
        }
        if requestCC.noCache.isPresent {
            return revalidateOrMiss(index, candidates, freshness, .requestNoCache, requestCC)
        }
        if pragmaNoCache {
            return revalidateOrMiss(index, candidates, freshness, .requestPragmaNoCache, requestCC)
        }
        if case .seconds(let limit) = requestCC.maxAge, freshness.age > Double(limit) {
            // RFC 8246: a fresh immutable response is not revalidated on a plain reload.
            if freshness.isFresh, responseCC.immutable {
                return .fresh(CacheHit(candidate: index, freshness: freshness, immutableSkippedRevalidation: true))
            }
            return revalidateOrMiss(index, candidates, freshness, .requestMaxAge(limit: limit, age: freshness.age), requestCC)
        }
        if freshness.isFresh {
            if case .seconds(let required) = requestCC.minFresh, freshness.timeToLive < Double(required) {
                return revalidateOrMiss(
                    index, candidates, freshness, .requestMinFresh(required: required, remaining: freshness.timeToLive),
                    requestCC)
            }
            return .fresh(CacheHit(candidate: index, freshness: freshness, immutableSkippedRevalidation: false))
        }
        // Stale from here on.
        if forbidsServingStale(stored) {
            return revalidateOrMiss(index, candidates, freshness, .mustRevalidate(staleBy: freshness.staleness), requestCC)
        }
        switch requestCC.maxStale {
        case .unlimited?:
            return .stale(StaleHit(candidate: index, freshness: freshness, reason: .maxStale))
        case .seconds(let allowed)? where freshness.staleness <= Double(allowed):
            return .stale(StaleHit(candidate: index, freshness: freshness, reason: .maxStale))
        default:
            break
        }
        let staleReason: RevalidationReason
        if case .invalid(let detail) = freshness.source {
            staleReason = .invalidFreshness(detail)
        } else {
            staleReason = .expired(staleBy: freshness.staleness)
        }
        if case .seconds(let window) = responseCC.staleWhileRevalidate, freshness.staleness <= Double(window),
            !requestCC.onlyIfCached
        {
            return .staleWhileRevalidate(StaleHit(candidate: index, freshness: freshness, reason: .staleWhileRevalidate(window: window)))
        }
        return revalidateOrMiss(index, candidates, freshness, staleReason, requestCC)
    }

    /// A conditional request when validators exist, a full fetch otherwise; with
    /// `only-if-cached`, neither is allowed.
    private func revalidateOrMiss(
        _ index: Int, _ candidates: [StoredResponse], _ freshness: Freshness,
        _ reason: RevalidationReason, _ requestCC: CacheControl
    ) -> CacheDecision {
        if requestCC.onlyIfCached { return .unsatisfiable(.onlyIfCached) }
        let conditional = conditionalHeaders(validating: index, among: candidates)
        if conditional.isEmpty {
            return .miss(Miss(reason: .staleWithoutValidator(reason), candidate: index))
        }
        return .revalidate(Revalidation(candidate: index, freshness: freshness, reason: reason, conditionalHeaders: conditional))
    }

    /// Picks the stored response for a request (RFC 9111 §4.1): among those whose Vary fields
    /// match, the most recent (by `Date`, then by receipt). Otherwise reports the fields that
    /// differ.
    public func select(from candidates: [StoredResponse], for requestHeaders: HTTPFields) -> (index: Int?, mismatched: [String]) {
        var best: Int?
        var mismatched: [String] = []
        for (index, candidate) in candidates.enumerated() {
            let differing = candidate.varyKey.mismatchedFields(for: requestHeaders)
            guard differing.isEmpty else {
                for name in differing where !mismatched.contains(name) { mismatched.append(name) }
                continue
            }
            if let current = best {
                let a = candidates[current], b = candidate
                if (b.date ?? b.responseTime, b.responseTime) > (a.date ?? a.responseTime, a.responseTime) { best = index }
            } else {
                best = index
            }
        }
        return (best, best == nil ? mismatched : [])
    }
}
