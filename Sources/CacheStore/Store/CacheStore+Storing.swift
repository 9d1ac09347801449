import Foundation
import HTTPCaching

extension CacheStore {
    /// Stores a response: into memory before returning, and to disk in the background
    /// (batched; the caller never waits on disk I/O). Replaces a stored variant with the same
    /// identity (key and Vary signature) in both tiers.
    ///
    /// - Parameters:
    ///   - response: the response as the caching rules see it.
    ///   - body: its body.
    ///   - freshUntil: end of its freshness lifetime (the client computes it with `HTTPCaching`).
    ///   - expiresAt: end of retention; past it the entry is removed and never returned.
    ///   - policy: where it may go; `.allowedInMemoryOnly` never touches the disk. Default `.allowed`.
    /// - Returns: where it was stored, or `nil` when it was not (policy `.notAllowed`, already
    ///   expired, or larger than ``StoreConfiguration/maximumEntryShare`` of every allowed
    ///   tier). A namespace's ``Namespace/timeToLive`` caps both dates at now + TTL.
    @discardableResult
    public func storeCachedResponse(
        _ response: StoredResponse, body: [UInt8], freshUntil: Date?, expiresAt: Date?, policy: StoragePolicy = .allowed
    ) -> EntryTier? {
        guard policy != .notAllowed else { return nil }
        let namespace = table.index(for: response.key.uri)
        let member = table[namespace]
        let id = EntryID(response)
        let storageKey = member.naming.storageKey(for: id)
        let primary = member.naming.primaryKey(for: response.key)
        let now = core.now()
        var freshUntil = freshUntil
        var expiresAt = expiresAt
        if let ttl = member.namespace.timeToLive {
            let cap = now.addingTimeInterval(ttl)
            freshUntil = min(freshUntil ?? cap, cap)
            expiresAt = min(expiresAt ?? cap, cap)
        }
        let metadata = EntryMetadata(
            id: id, created: now, lastAccess: now, accessCount: 0, size: CacheEntry.size(of: response, body: body),
            tier: .memory, freshUntil: freshUntil, expiresAt: expiresAt)
        let entry = CacheEntry(stored: response, body: body, metadata: metadata, storageKey: storageKey)
        let info = EntryInfo(response)
        return core.withIndex {
            $0.store(entry, namespace: namespace, primary: primary, info: info, policy: policy, now: now)
        }
    }
}
