import CacheEvents
import CacheStore
import Foundation
public import HTTPCaching
public import HTTPTypes

extension CachingClient {
    /// Answers a GET or HEAD at once, without suspending, when the memory tier holds a
    /// response the rules let the cache serve without asking anyone (a fresh one, or a stale
    /// one the request or the policy accepts); `nil` otherwise, having published nothing and
    /// changed nothing.
    ///
    /// For a caller on a thread it should not leave — a server's event loop — that answers
    /// the common case in place and hands the rest to ``stream(for:body:length:policy:)`` or
    /// ``data(for:body:policy:)`` in a task. An answer given here is the one those would give
    /// at the same instant: the same decision and reason, the same events (`requestStarted`,
    /// `lookup`, `served`, `requestFinished`), the same access counted in the store and the
    /// same `Age`.
    ///
    /// ```swift
    /// if let answer = client.immediateResponse(for: request) {
    ///     write(answer)                              // a hit, on this thread
    /// } else {
    ///     Task { write(try await client.stream(for: request)) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: an absolute request (scheme, authority and path set) without a body.
    ///   - policy: overrides the configuration's default policy for this request.
    /// - Returns: `nil` when the answer needs the disk tier, the shared tier, the origin or a
    ///   background revalidation, or when the client was shut down.
    public func immediateResponse(for request: HTTPRequest, policy: CachePolicy? = nil) -> ClientResponse? {
        immediateResponse(for: request, policy: policy, shape: nil)
    }

    /// ``immediateResponse(for:policy:)`` for a caller that answers what is served in another
    /// form (a proxy: ``ServedShape``).
    package func immediateResponse(for request: HTTPRequest, policy: CachePolicy?, shape: ServedShape?) -> ClientResponse? {
        guard request.method == .get || request.method == .head, request.scheme != nil, request.authority != nil, !isShutDown
        else { return nil }
        let policy = policy ?? configuration.defaultPolicy
        let url = Self.url(of: request)
        // The same key as `singleRequest` makes, from the same URL string.
        guard let key = CacheKey(method: request.method.rawValue, uri: url) else { return nil }
        let now = configuration.now()
        guard let candidates = store.memoryVariants(for: key, now: now), !candidates.isEmpty else { return nil }
        let decision = rules.decide(request: request, key: key, policy: policy, candidates: candidates.map(\.stored), now: now)
        let served: (candidate: Int, freshness: Freshness, outcome: CacheOutcome)
        switch decision {
        case .fresh(let hit): served = (hit.candidate, hit.freshness, .hit)
        case .stale(let hit): served = (hit.candidate, hit.freshness, .stale)
        case .staleWhileRevalidate, .revalidate, .miss, .bypass, .unsatisfiable: return nil
        }
        // From here on, exactly what `singleRequest` and `lookUpAndExecute` publish for a
        // request the store answers on its first lookup.
        var run = RequestRun(id: events.makeRequestID(), request: request, body: nil, policy: policy, start: now)
        run.keyDescription = key.description
        run.shape = shape
        publishStarted(run, url: url)
        let reason = decision.reason
        let lookup = lookupEvent(decision, reason: reason, candidates: candidates, now: now)
        return serve(
            candidates[served.candidate], freshness: served.freshness, outcome: served.outcome, reason: reason, run: run, after: lookup)
    }
}
