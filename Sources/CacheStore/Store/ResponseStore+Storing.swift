public import Foundation
public import HTTPCaching

extension ResponseStore {
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
        let now = core.now()
        let entry = entry(response, body: body, namespace: namespace, created: now, freshUntil: freshUntil, expiresAt: expiresAt)
        return store(entry, namespace: namespace, policy: policy, now: now)
    }

    /// An entry for a response this store does not keep — a shared tier's row that the
    /// client's `willCache` hook refused to copy into its tiers (a read-only proxy's), or
    /// that they would not take: served as it is, in no tier, so serving it records no access.
    package func unkeptEntry(_ response: StoredResponse, body: [UInt8], created: Date, freshUntil: Date?, expiresAt: Date?) -> CacheEntry {
        entry(response, body: body, namespace: table.index(for: response.key.uri), created: created, freshUntil: freshUntil, expiresAt: expiresAt)
    }

    /// A new entry for `response`, in no tier yet, named as `namespace` names it.
    private func entry(
        _ response: StoredResponse, body: [UInt8], namespace: Int, created: Date, freshUntil: Date?, expiresAt: Date?
    ) -> CacheEntry {
        let id = EntryID(response)
        let metadata = EntryMetadata(
            id: id, created: created, lastAccess: created, accessCount: 0, size: CacheEntry.size(of: response, body: body),
            tier: .memory, freshUntil: freshUntil, expiresAt: expiresAt)
        return CacheEntry(stored: response, body: body, metadata: metadata, storageKey: table[namespace].naming.storageKey(for: id))
    }

    /// Stores a response a 304 freshened (RFC 9111 §4.3.4) in place of the entry it was
    /// made from: the same variant with the same body, under new header fields and new
    /// freshness. The entry keeps its creation time and hit count (it is the same response,
    /// confirmed by the origin), and the store skips what an unrelated response would cost
    /// it: naming the variant and measuring the body again.
    ///
    /// On disk only the entry's metadata file is rewritten (headers, times, validators): the
    /// body file stays as it is, so a freshen costs the same for a 1 KB and a 1 MB body.
    ///
    /// When `response` is not a variant of `entry` (another key or Vary signature), it is
    /// stored as a new response, like ``storeCachedResponse(_:body:freshUntil:expiresAt:policy:)``.
    /// - Returns: where it was stored, or `nil` when it was not.
    @discardableResult
    public func storeFreshened(
        _ response: StoredResponse, of entry: CacheEntry, freshUntil: Date?, expiresAt: Date?, policy: StoragePolicy = .allowed
    ) -> EntryTier? {
        guard policy != .notAllowed else { return nil }
        guard EntryID(response) == entry.id else {
            return storeCachedResponse(response, body: entry.body, freshUntil: freshUntil, expiresAt: expiresAt, policy: policy)
        }
        let namespace = table.index(for: response.key.uri)
        let now = core.now()
        let metadata = EntryMetadata(
            id: entry.id, created: entry.metadata.created, lastAccess: now, accessCount: entry.metadata.accessCount,
            size: CacheEntry.size(of: response, body: entry.body), tier: .memory, freshUntil: freshUntil, expiresAt: expiresAt)
        var freshened = CacheEntry(stored: response, body: entry.body, metadata: metadata, storageKey: entry.storageKey)
        // Claims the entry's body file: when the disk still holds that body for this variant,
        // only the metadata file is rewritten (atomically, by rename); otherwise a full write.
        freshened.bodyID = entry.bodyID
        return store(freshened, namespace: namespace, policy: policy, now: now)
    }

    /// Applies the namespace's TTL cap and hands the entry to the index.
    private func store(_ entry: CacheEntry, namespace: Int, policy: StoragePolicy, now: Date) -> EntryTier? {
        let member = table[namespace]
        var entry = entry
        if let ttl = member.namespace.timeToLive {
            let cap = now.addingTimeInterval(ttl)
            entry.metadata.freshUntil = min(entry.metadata.freshUntil ?? cap, cap)
            entry.metadata.expiresAt = min(entry.metadata.expiresAt ?? cap, cap)
        }
        // The primary-key digest names disk records only.
        let primary = readers[namespace] != nil ? member.naming.primaryKey(for: entry.stored.key) : nil
        return core.withIndex {
            $0.store(entry, namespace: namespace, primary: primary, info: $0.info(for: entry.stored), policy: policy, now: now)
        }
    }
}
