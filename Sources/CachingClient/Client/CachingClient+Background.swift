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
        // A HEAD that found the entry stale refreshes it with a GET: a HEAD's answer has no body
        // to store, so the entry would stay stale.
        var refresh = request
        if refresh.method == .head { refresh.method = .get }
        var backgroundRun = RequestRun(id: events.makeRequestID(), request: refresh, body: nil, policy: .useProtocolCachePolicy, start: configuration.now())
        backgroundRun.background = true
        let run = backgroundRun
        // Made and registered under the state's lock, so that `shutdown()`, which takes the
        // tasks under it, either waits for this one or keeps it from starting, and the task's
        // own removal (under the same lock) always comes after its registration.
        let started = state.withLock { current -> Bool in
            guard !current.isShutDown else { return false }
            current.backgroundTasks[run.id] = Task { [self] in
                defer {
                    _ = backgroundRevalidations.withLock { $0.remove(flight) }
                    _ = state.withLock { $0.backgroundTasks.removeValue(forKey: run.id) }
                }
                await refreshInBackground(run, key: key, candidates: candidates, hit: hit)
            }
            return true
        }
        if !started { _ = backgroundRevalidations.withLock { $0.remove(flight) } }
    }

    /// The refresh itself: its request in the event stream, the conditional request (or a
    /// full fetch), and the store's update; a failure ends it with `error`.
    private func refreshInBackground(_ run: RequestRun, key: CacheKey, candidates: [CacheEntry], hit: StaleHit) async {
        let decision = revalidationDecision(for: hit.candidate, among: candidates, reason: .expired(staleBy: hit.freshness.staleness))
        publishRequestStarted(run, key: key, policyName: RequestStarted.backgroundPolicy)
        events.publish(
            .lookup(Lookup(verdict: .stale, reason: "stale-while-revalidate refresh", age: hit.freshness.age, ttl: hit.freshness.timeToLive)),
            requestID: run.id)
        do {
            _ = try await network(decision, reason: decision.reason, run: run, key: key, candidates: candidates)
        } catch {
            // Nobody waits for the refresh, but it still ends in the event stream.
            finishWithError(error, run: run)
        }
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
