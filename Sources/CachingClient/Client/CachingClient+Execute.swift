import CacheEvents
import CacheStore
import Foundation
import HTTPCaching
import HTTPTypes

extension CachingClient {
    /// Carries out a decision the store answers — a fresh or stale response, or a 504 for
    /// `only-if-cached` — without waiting for anything; `nil` for one that goes to the origin.
    ///
    /// `lookup`: the decision's event, made at `now`, published with the answer's `served`
    /// and `requestFinished` under one lock (and alone before a `notCached` error). A decision
    /// that goes to the origin leaves it to the caller to publish first.
    func answerFromStore(
        _ decision: CacheDecision, reason: String, lookup: CacheEventKind, lookedUpAt now: Date, run: RequestRun, key: CacheKey?,
        candidates: [CacheEntry]
    ) throws -> ClientResponse? {
        switch decision {
        case .fresh(let hit):
            return serve(candidates[hit.candidate], freshness: hit.freshness, outcome: .hit, reason: reason, run: run, after: lookup)
        case .stale(let hit):
            return serve(candidates[hit.candidate], freshness: hit.freshness, outcome: .stale, reason: reason, run: run, after: lookup)
        case .staleWhileRevalidate(let hit):
            if let key { startBackgroundRevalidation(key: key, candidates: candidates, hit: hit, request: run.request) }
            return serve(candidates[hit.candidate], freshness: hit.freshness, outcome: .stale, reason: reason, run: run, after: lookup)
        case .unsatisfiable(let why):
            guard why != .policyDontLoad else {
                events.publish(lookup, requestID: run.id, at: now)
                throw CachingClientError.notCached(url: Self.url(of: run.request))
            }
            return gatewayTimeout(reason: reason, run: run, after: lookup)
        case .revalidate, .miss, .bypass:
            return nil
        }
    }

    /// Goes to the origin, sharing the fetch with identical concurrent requests, and falls
    /// back to a stale response when the origin fails and `stale-if-error` allows it.
    ///
    /// `reason`: the decision's, worded once for its `lookup` event. `ticket`: taken before the
    /// lookup that made `decision`; when a flight for the key ended
    /// since, the request looks again rather than fetch what that flight may have stored.
    /// `nil` for a request that must reach the origin whatever is stored (a refresh, a background
    /// revalidation).
    func network(
        _ decision: CacheDecision, reason: String, run: RequestRun, key: CacheKey?, candidates: [CacheEntry],
        lookedUpAt ticket: RequestCoalescer<NetworkResult>.Ticket? = nil
    ) async throws -> ClientResponse {
        let result: NetworkResult
        var leaderID: UInt64?
        do {
            if let key, case .bypass = decision {
                result = try await fetch(decision, reason: reason, run: run, key: key, candidates: candidates)
            } else if let key {
                let flight = flightKey(key, decision: decision, candidates: candidates, run: run)
                let joined = try await coalescer.run(key: flight, requestID: run.id, lookedUpAt: ticket) { [self] in
                    try await self.fetch(decision, reason: reason, run: run, key: key, candidates: candidates)
                }
                guard let shared = joined else {
                    var again = run
                    again.lookups += 1
                    return try await lookUpAndExecute(run: again, key: key)
                }
                if shared.leaderID == run.id {
                    result = shared.value
                } else if !Self.mayShare(shared.value, with: run.request) {
                    result = try await fetch(decision, reason: reason, run: run, key: key, candidates: candidates)
                } else {
                    leaderID = shared.leaderID
                    events.publish(.coalesced(Coalesced(leaderID: shared.leaderID)), requestID: run.id)
                    result = shared.value
                }
            } else {
                result = try await fetch(decision, reason: reason, run: run, key: nil, candidates: candidates)
            }
        } catch let error as TransportError {
            if let stale = staleFallback(decision, candidates: candidates, run: run, failure: error.description) { return stale }
            throw CachingClientError.transport(error)
        }
        if CacheRules.isErrorStatus(result.status),
            let stale = staleFallback(
                decision, candidates: candidates, run: run, failure: "status \(result.status)", status: result.status,
                bytesFromNetwork: leaderID == nil ? result.bytesFromNetwork : 0)
        {
            return stale
        }
        return deliver(result, run: run, coalescedWith: leaderID, forwardedBecause: decision.forwardCause)
    }

    /// Whether a follower may take its leader's answer. Only what it could have been served
    /// from the cache (RFC 9111 §4): a response the leader stored, whose Vary fields this
    /// request sends alike. Anything else — not storable (`no-store`, a 401, a response to
    /// other credentials), or varying on a field this request sends differently — it fetches
    /// for itself. An origin failure (500, 502, 503, 504) is shared: the origin is failing
    /// for everyone, and each follower still falls back to its stale copy if it may. A body
    /// passed through to the leader's caller uncollected (too large to store) is never shared.
    static func mayShare(_ answer: NetworkResult, with request: HTTPRequest) -> Bool {
        if answer.passedThrough { return false }
        if CacheRules.isErrorStatus(answer.status) { return true }
        guard let vary = answer.storedVaryKey else { return false }
        return vary.mismatchedFields(for: request.headerFields).isEmpty
    }

    /// The coalescing key: the method (a HEAD's answer has no body for a GET, though both
    /// look up the same key), the primary key, and this request's values of the fields the
    /// stored response varies on, so differently-negotiated requests never share a fetch.
    private func flightKey(_ key: CacheKey, decision: CacheDecision, candidates: [CacheEntry], run: RequestRun) -> String {
        let request = run.request
        let description = run.keyDescription ?? key.description
        let primary = request.method == .head ? "HEAD|" + description : description
        let varyNames = Set(candidates.flatMap { $0.stored.varyNames })
        guard !varyNames.isEmpty else { return primary }
        let values = varyNames.sorted().map { name in
            "\(name)=\(HTTPField.Name(name).flatMap { request.headerFields[$0] } ?? "-")"
        }
        return primary + "|" + values.joined(separator: "&")
    }

    /// `bytesFromNetwork`: what the failed answer brought (an error page's body), if any;
    /// `status`: its error status (`nil` when the origin could not be reached). The failure is
    /// recorded on `served`, so a replay can fail the same way.
    private func staleFallback(
        _ decision: CacheDecision, candidates: [CacheEntry], run: RequestRun, failure: String, status: Int? = nil,
        bytesFromNetwork: Int = 0
    ) -> ClientResponse? {
        guard let index = decision.candidate,
            let hit = rules.staleIfError(
                stored: candidates[index].stored, candidate: index, request: run.request, failure: failure, now: configuration.now())
        else { return nil }
        return serve(
            candidates[index], freshness: hit.freshness, outcome: .stale, reason: hit.reason.description, run: run, fromNetwork: true,
            bytesFromNetwork: bytesFromNetwork, originFailure: (failure, status))
    }

    /// Serves a stored response and publishes `served` and `requestFinished`, after `lookup`
    /// when that is still to be published.
    func serve(
        _ entry: CacheEntry, freshness: Freshness, outcome: CacheOutcome, reason: String, run: RequestRun, fromNetwork: Bool = false,
        bytesFromNetwork: Int = 0, originFailure: (message: String, status: Int?)? = nil, after lookup: CacheEventKind? = nil
    ) -> ClientResponse {
        let fields = rules.servedHeaderFields(for: entry.stored, age: freshness.age, revalidated: false)
        var response = entry.stored.response
        response.headerFields = fields
        let body = run.request.method == .head ? Data() : Data(entry.body)
        let now = configuration.now()
        store.recordAccess(entry, now: now)
        publishCompletion(
            Served(
                source: .cache, status: entry.stored.status, bytes: body.count, outcome: outcome, reason: reason,
                age: freshness.age, ttl: freshness.timeToLive, headers: fields, originError: originFailure?.message,
                originStatus: originFailure?.status),
            bytesFromNetwork: bytesFromNetwork, bytesFromCache: body.count, coalesced: false, run: run, after: lookup, at: now)
        return ClientResponse(
            response: response, body: body, outcome: outcome, reason: reason, age: freshness.age,
            timeToLive: freshness.timeToLive, fromNetwork: fromNetwork, coalesced: false, requestID: run.id)
    }

    /// Hands an origin result to the caller and publishes `served` and `requestFinished`.
    private func deliver(
        _ result: NetworkResult, run: RequestRun, coalescedWith leaderID: UInt64?, forwardedBecause cause: ForwardCause?
    ) -> ClientResponse {
        let body = run.request.method == .head ? Data() : result.body
        let coalesced = leaderID != nil
        publishCompletion(
            Served(
                source: result.bodyFromCache ? .cache : .network, status: result.status, bytes: body.count,
                outcome: result.outcome, reason: result.reason, age: result.age, ttl: result.timeToLive,
                headers: result.response.headerFields),
            bytesFromNetwork: coalesced ? 0 : result.bytesFromNetwork, bytesFromCache: result.bodyFromCache ? body.count : 0,
            coalesced: coalesced, run: run)
        return ClientResponse(
            response: result.response, body: body, outcome: result.outcome, reason: result.reason, age: result.age,
            timeToLive: result.timeToLive, fromNetwork: true, coalesced: coalesced, requestID: run.id, forwardCause: cause)
    }

    /// RFC 9111 §5.2.1.7: `only-if-cached` with nothing usable is answered with 504.
    private func gatewayTimeout(reason: String, run: RequestRun, after lookup: CacheEventKind) -> ClientResponse {
        let response = HTTPResponse(status: .gatewayTimeout, headerFields: [.contentLength: "0"])
        publishCompletion(
            Served(source: .cache, status: 504, bytes: 0, outcome: .error, reason: reason, headers: response.headerFields),
            bytesFromNetwork: 0, bytesFromCache: 0, coalesced: false, run: run, after: lookup)
        return ClientResponse(
            response: response, body: Data(), outcome: .error, reason: reason, age: nil, timeToLive: nil,
            fromNetwork: false, coalesced: false, requestID: run.id)
    }

    /// The two events that end every answered request: `served`, then `requestFinished` with
    /// the same status, outcome and reason; after the request's `lookup` when that is given
    /// (an answer from the store). A background refresh serves nobody, so it reports no bytes
    /// from the cache (only what crossed the network). `now`: a clock reading taken as the
    /// answer was made, if there is one.
    private func publishCompletion(
        _ served: consuming Served, bytesFromNetwork: Int, bytesFromCache: Int, coalesced: Bool, run: RequestRun,
        after lookup: consuming CacheEventKind? = nil, at now: Date? = nil
    ) {
        let now = now ?? configuration.now()
        var served = served
        var bytesFromCache = bytesFromCache
        // What the caller's client gets for an answer from the store: its 304, 206 or HEAD, not
        // the stored 200 whole. (Not for the origin's answers: a recording's `served` from the
        // network is what a what-if replay takes the origin to have said.)
        if let shape = run.shape, served.source == .cache {
            let sent = shape(served.status, served.headers, served.bytes, true, run.streaming?.passedThroughBody != nil)
            if bytesFromCache > 0 { bytesFromCache = sent.bytes }
            (served.status, served.bytes) = sent
        }
        let finished = CacheEventKind.requestFinished(RequestFinished(
            status: served.status, latency: run.elapsed(at: now), bytesFromNetwork: bytesFromNetwork,
            bytesFromCache: run.background ? 0 : bytesFromCache, outcome: served.outcome, reason: served.reason,
            coalesced: coalesced, background: run.background))
        // Moved into the events, not copied (the bus takes them over).
        switch consume lookup {
        case .some(let lookup): events.publish(lookup, .served(served), finished, requestID: run.id, at: now)
        case .none: events.publish(.served(served), finished, requestID: run.id, at: now)
        }
    }
}
