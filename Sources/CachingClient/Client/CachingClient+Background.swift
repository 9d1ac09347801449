import CacheEvents
import CacheStore
import Foundation
import HTTPCaching
import HTTPTypes
import Synchronization

extension CachingClient {
    /// `stale-while-revalidate`: refreshes the entry once in the background (never twice at
    /// the same time for one key) while the caller already got the stale response. The
    /// refresh is a request of its own in the event stream, with policy `background`.
    func startBackgroundRevalidation(key: CacheKey, candidates: [CacheEntry], hit: StaleHit, request: HTTPRequest) {
        let flight = key.description + "|" + candidates[hit.candidate].stored.varyKey.signature
        guard backgroundRevalidations.withLock({ $0.insert(flight).inserted }) else { return }
        var backgroundRun = RequestRun(id: events.makeRequestID(), request: request, body: nil, policy: .useProtocolCachePolicy, start: configuration.now())
        backgroundRun.background = true
        let run = backgroundRun
        let task = Task { [self] in
            defer {
                _ = backgroundRevalidations.withLock { $0.remove(flight) }
                _ = state.withLock { $0.backgroundTasks.removeValue(forKey: run.id) }
            }
            let decision = revalidationDecision(for: hit.candidate, among: candidates, reason: .expired(staleBy: hit.freshness.staleness))
            publishRequestStarted(run, key: key, policyName: RequestStarted.backgroundPolicy)
            events.publish(.lookup(Lookup(verdict: .stale, reason: "stale-while-revalidate refresh", age: hit.freshness.age, ttl: hit.freshness.timeToLive)), requestID: run.id)
            do {
                _ = try await network(decision, reason: decision.reason, run: run, key: key, candidates: candidates)
            } catch {
                // Nobody waits for the refresh, but it still ends in the event stream.
                finishWithError(error, run: run)
            }
        }
        state.withLock { $0.backgroundTasks[run.id] = task }
    }

    /// A conditional request for one stored response, or a full fetch when it has no validator.
    func revalidationDecision(for index: Int, among candidates: [CacheEntry], reason: RevalidationReason) -> CacheDecision {
        let stored = candidates.map(\.stored)
        let conditional = rules.conditionalHeaders(validating: index, among: stored)
        let freshness = rules.freshness(of: stored[index], now: configuration.now())
        if conditional.isEmpty { return .miss(Miss(reason: .staleWithoutValidator(reason), candidate: index)) }
        return .revalidate(Revalidation(candidate: index, freshness: freshness, reason: reason, conditionalHeaders: conditional))
    }

    func publishRequestStarted(_ run: RequestRun, key: CacheKey?, policyName: String) {
        events.publish(
            .requestStarted(RequestStarted(
                method: run.request.method.rawValue, url: Self.url(of: run.request), cacheKey: key?.description ?? "",
                policy: policyName, headers: run.request.headerFields)),
            requestID: run.id)
    }
}
