import CacheStore
import Foundation
import HTTPCaching
import HTTPTypes
import SharedTier

extension CachingClient {
    /// What storing a response did.
    struct StoringResult {
        enum Result { case stored, notStored(String) }
        let result: Result
        let stored: StoredResponse?
        let freshness: Freshness?
    }

    /// Stores an origin response when the rules and the `willCache` hook allow it, fresh until
    /// its freshness lifetime ends. The store is given no retention end (`expiresAt`): a stale
    /// entry stays until the store needs the room (or a namespace's TTL or a purge removes it),
    /// with or without a validator, because it can still be revalidated, served under
    /// `stale-while-revalidate` / `stale-if-error` or a request's `max-stale`, and the
    /// cache-else-load and cache-only policies accept any stored response however stale.
    func storeIfAllowed(
        _ request: HTTPRequest, _ origin: TransportResponse, key: CacheKey?, requestTime: Date, responseTime: Date
    ) async -> StoringResult {
        guard let key else { return StoringResult(result: .notStored("no cache key"), stored: nil, freshness: nil) }
        if case .notStorable(let reason) = rules.storability(request: request, response: origin.response, now: responseTime) {
            return StoringResult(result: .notStored(reason.description), stored: nil, freshness: nil)
        }
        var response = origin.response
        var body = origin.body
        var policy = StoragePolicy.allowed
        if let willCache = configuration.willCache {
            switch await willCache(request, response) {
            case .store(let chosen): policy = chosen
            case .replace(let replacement, let replacementBody, let chosen):
                response = replacement
                body = replacementBody
                policy = chosen
                // A Content-Length the hook kept from the original would not describe the new body.
                if response.headerFields[.contentLength] != nil { response.headerFields[.contentLength] = String(body.count) }
            }
        }
        guard policy != .notAllowed else {
            return StoringResult(result: .notStored("willCache declined"), stored: nil, freshness: nil)
        }
        let stored = rules.storedResponse(key: key, request: request, response: response, requestTime: requestTime, responseTime: responseTime)
        let freshness = rules.freshness(of: stored, now: responseTime)
        let bytes = [UInt8](body)
        let freshUntil = responseTime.addingTimeInterval(freshness.timeToLive)
        // A refusal is said as the reason, so a miss that was not kept does not look like one
        // that was: most often the body's size; else a namespace's time to live of 0, or a
        // memory-only policy for a body only the disk would take.
        guard store.storeCachedResponse(stored, body: bytes, freshUntil: freshUntil, expiresAt: nil, policy: policy) != nil else {
            let limit = store.maximumBodySize(for: key, response: response)
            let why = bytes.count > limit ? "body larger than the store keeps (\(limit) bytes)" : "the store did not keep it (its configuration)"
            return StoringResult(result: .notStored(why), stored: nil, freshness: nil)
        }
        // In the background: the response never waits for the shared tier. A response kept in
        // memory only (the `willCache` hook's choice) stays out of it, as out of the disk.
        if policy == .allowed, let sharedTier,
            let shared = sharedTierCopy(
                of: stored, freshUntil: freshUntil, request: request, response: response, requestTime: requestTime, responseTime: responseTime)
        {
            sharedTier.store(
                shared.stored, body: bytes, created: responseTime, freshUntil: shared.freshUntil, expiresAt: nil,
                tags: configuration.store.tags(of: shared.stored))
        }
        return StoringResult(result: .stored, stored: stored, freshness: freshness)
    }

    /// What the shared tier may hold of a response `stored` in this client's own tiers: its
    /// rows are read by every instance on the database, a `cachescope proxy` serving many users
    /// among them, so it holds only what a shared cache may store (RFC 9111 §3, §3.5,
    /// §5.2.2.7) — never a `private` response nor one to a request with `Authorization` (unless
    /// `public`, `s-maxage` or `must-revalidate` allow it), and without the fields
    /// `private="…"` names — and until when a shared cache would call it fresh (`s-maxage`
    /// over `max-age`), which the rows carry for every instance's TTL. `nil`: nothing goes to
    /// the tier. A shared-mode client's own stored response, fresh until `freshUntil`, is that
    /// already.
    func sharedTierCopy(
        of stored: StoredResponse, freshUntil: Date, request: HTTPRequest, response: HTTPResponse, requestTime: Date, responseTime: Date
    ) -> (stored: StoredResponse, freshUntil: Date)? {
        if configuration.mode == .shared { return (stored, freshUntil) }
        guard case .storable = sharedTierRules.storability(request: request, response: response, now: responseTime) else { return nil }
        let copy = sharedTierRules.storedResponse(
            key: stored.key, request: request, response: response, requestTime: requestTime, responseTime: responseTime)
        return (copy, responseTime.addingTimeInterval(sharedTierRules.freshness(of: copy, now: responseTime).timeToLive))
    }

    /// The storage policy for re-storing a freshened entry: the `willCache` hook decides
    /// again (so an entry it kept in memory only stays there).
    func storagePolicy(for request: HTTPRequest, response: HTTPResponse) async -> StoragePolicy {
        guard let willCache = configuration.willCache else { return .allowed }
        switch await willCache(request, response) {
        case .store(let policy), .replace(_, _, let policy): return policy
        }
    }
}
