import CacheEvents
import CacheStore
import Foundation
import HTTPCaching
import HTTPTypes
import SharedTier

extension CachingClient {
    /// One origin exchange for a decision: sends the (conditional) request, applies a 304 or
    /// stores the new response, invalidates after unsafe methods. Runs once per coalesced flight.
    /// `reason`: the decision's (`decision.reason`), worded once for the lookup.
    func fetch(
        _ decision: CacheDecision, reason lookupReason: String, run: RequestRun, key: CacheKey?, candidates: [CacheEntry]
    ) async throws -> NetworkResult {
        let outgoing = rules.networkRequest(for: run.request, decision: decision, policy: run.policy)
        if case .revalidate(let revalidation) = decision {
            events.publish(
                .revalidationSent(RevalidationSent(
                    ifNoneMatch: revalidation.conditionalHeaders.ifNoneMatchValue,
                    ifModifiedSince: revalidation.conditionalHeaders.ifModifiedSinceValue,
                    background: run.background)),
                requestID: run.id)
        }
        let requestTime = configuration.now()
        let origin = try await originResponse(outgoing, run: run, key: key)
        let responseTime = configuration.now()

        if case .revalidate(let revalidation) = decision {
            if origin.response.status.code == 304 {
                if let result = await applyNotModified(origin.response, revalidation, lookupReason, candidates, requestTime, responseTime, run) {
                    return result
                }
                // The 304 does not select the stored response (RFC 9111 §4.3.4): fetch in full.
                // What comes back replaces what was stored: a revalidation that found it modified,
                // not a miss (the metrics count the revalidation as failed, docs/metrics.md).
                let unconditional = CacheDecision.miss(Miss(reason: .notStored, candidate: nil))
                var refetched = try await fetch(unconditional, reason: unconditional.reason, run: run, key: key, candidates: [])
                refetched.outcome = .modified
                refetched.reason = "\(refetched.status) after a 304 that selected no stored response (\(lookupReason))"
                return refetched
            }
            events.publish(.modified(Modified(status: origin.response.status.code)), requestID: run.id)
        }
        if let key { await invalidateAfterUnsafeMethod(run.request, origin.response, key: key) }

        let storing = await storeUnlessPassedThrough(run.request, origin, key: key, requestTime: requestTime, responseTime: responseTime, run: run)
        let outcome: CacheOutcome
        var reason = lookupReason
        switch decision {
        case .revalidate: outcome = .modified; reason = "\(origin.response.status.code) after \(lookupReason)"
        case .bypass: outcome = .bypass
        default:
            outcome = .miss
            if case .notStored(let why) = storing.result { reason = why }
        }
        return NetworkResult(
            response: origin.response, body: origin.body, outcome: outcome, reason: reason,
            bytesFromNetwork: origin.body.count, bodyFromCache: false, age: storing.freshness?.age ?? 0,
            timeToLive: storing.freshness?.timeToLive, storedVaryKey: storing.stored?.varyKey,
            passedThrough: run.streaming?.passedThroughBody != nil)
    }

    /// Freshens the stored responses a 304 selects and serves the validated one; `nil` when
    /// the 304 does not select it.
    private func applyNotModified(
        _ notModified: HTTPResponse, _ revalidation: Revalidation, _ reason: String, _ candidates: [CacheEntry],
        _ requestTime: Date, _ responseTime: Date, _ run: RequestRun
    ) async -> NetworkResult? {
        let selected = rules.responsesToFreshen(
            notModified: notModified, candidates: candidates.map(\.stored), validated: revalidation.candidate, now: responseTime)
        guard selected.contains(revalidation.candidate) else { return nil }
        var served: (response: StoredResponse, freshness: Freshness)?
        for index in selected {
            let freshened = rules.freshen(candidates[index].stored, with: notModified, requestTime: requestTime, responseTime: responseTime)
            let freshness = rules.freshness(of: freshened, now: responseTime)
            let policy = await storagePolicy(for: run.request, response: freshened.response)
            if policy != .notAllowed {
                // Kept past its freshness, like a new response (see `storeIfAllowed`).
                let freshUntil = responseTime.addingTimeInterval(freshness.timeToLive)
                store.storeFreshened(freshened, of: candidates[index], freshUntil: freshUntil, expiresAt: nil, policy: policy)
                // A private client's copy for the tier is made for the variant the request
                // describes: only that one (a strong ETag may select several).
                if policy == .allowed, configuration.mode == .shared || index == revalidation.candidate, let sharedTier,
                    let shared = sharedTierCopy(
                        of: freshened, freshUntil: freshUntil, request: run.request, response: freshened.response, requestTime: requestTime,
                        responseTime: responseTime)
                {
                    sharedTier.freshen(
                        shared.stored, body: candidates[index].body, created: candidates[index].metadata.created, freshUntil: shared.freshUntil,
                        expiresAt: nil, tags: configuration.store.tags(of: shared.stored))
                }
            }
            if index == revalidation.candidate { served = (freshened, freshness) }
        }
        guard let (served, freshness) = served else { return nil }
        events.publish(.notModified(NotModified(freshened: selected.count, ttl: freshness.timeToLive, headers: notModified.headerFields)), requestID: run.id)
        var response = served.response
        response.headerFields = rules.servedHeaderFields(for: served, age: freshness.age, revalidated: true)
        return NetworkResult(
            response: response,
            body: Data(candidates[revalidation.candidate].body), outcome: .revalidated,
            reason: "304 (\(reason))", bytesFromNetwork: 0, bodyFromCache: true,
            age: freshness.age, timeToLive: freshness.timeToLive, storedVaryKey: served.varyKey)
    }

    /// RFC 9111 §4.4: a successful unsafe request invalidates its target and same-origin
    /// Location / Content-Location.
    private func invalidateAfterUnsafeMethod(_ request: HTTPRequest, _ response: HTTPResponse, key: CacheKey) async {
        for invalidated in rules.invalidatedKeys(request: request, response: response) {
            store.invalidate(invalidated)
            sharedTier?.invalidate(invalidated)
        }
    }
}
