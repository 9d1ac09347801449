public import Foundation
public import HTTPCaching
public import HTTPTypes

extension ResponseStore {
    // MARK: Removing

    /// Removes every variant of a key from both tiers (reported per entry as
    /// `evicted(purged)`, then `purged(.key)`); returns how many it removed, counted in the
    /// same step as the removal (a response stored meanwhile is either counted and removed,
    /// or neither).
    @discardableResult
    public func removeCachedResponse(for key: CacheKey) -> Int {
        removeKey(key, reason: .purged, then: .purged(.key(key)))
    }

    /// Removes every variant of `key` because an unsafe request changed its resource (RFC 9111
    /// §4.4): each is reported as an eviction for ``EvictionReason/invalidated``, and no purge
    /// is reported. Returns how many variants there were.
    @discardableResult
    public func invalidate(_ key: CacheKey) -> Int {
        removeKey(key, reason: .invalidated, then: nil)
    }

    /// Every variant of `key` out of both tiers, each reported as evicted for `reason`, then
    /// `change` reported (a purge's own) in the same step; how many there were.
    private func removeKey(_ key: CacheKey, reason: EvictionReason, then change: StoreChange?) -> Int {
        let namespace = table.index(for: key.uri)
        let primary = table[namespace].naming.primaryKey(for: key)
        return core.withIndex { index in
            let removed = index.removeKey(key, namespace: namespace, primary: primary, reason: reason)
            if let change { index.changes.append(change) }
            return removed
        }
    }

    /// Removes every variant stored for a request's key (URLCache's name). Does nothing for a
    /// request without a cache key.
    public func removeCachedResponse(for request: HTTPRequest) {
        guard let key = CacheKey(request) else { return }
        removeCachedResponse(for: key)
    }

    /// Removes one variant (the dashboard's "purge selected").
    public func removeEntry(_ id: EntryID) {
        let namespace = table.index(for: id.key.uri)
        let naming = table[namespace].naming
        let storageKey = naming.storageKey(for: id)
        let primary = naming.primaryKey(for: id.key)
        core.withIndex { $0.removeEntry(id, storageKey: storageKey, namespace: namespace, primary: primary) }
    }

    /// Removes every entry stored at or after `date` (URLCache's name).
    public func removeCachedResponses(since date: Date) {
        core.withIndex { $0.removeStored(since: date) }
    }

    /// Removes everything, in memory at once and on disk in the background (reported as one
    /// `purged(.all)`); returns how many entries there were, counted in the same step.
    @discardableResult
    public func removeAllCachedResponses() -> Int {
        core.withIndex { $0.removeAll() }
    }

    /// Removes every entry whose retention (`expiresAt`) has ended; returns how many. The
    /// store also does this at open and every ``StoreConfiguration/sweepInterval``.
    @discardableResult
    public func removeExpired() -> Int {
        let now = core.now()
        return core.withIndex { index in
            let count = index.removeExpired(now: now, reportPurge: false)
            if count > 0 { index.changes.append(.purged(.expired)) }
            return count
        }
    }

    // MARK: Capacity and usage

    /// Bytes the memory tier may hold; setting it evicts at once.
    public var memoryCapacity: Int {
        get { core.read { $0.memoryCapacity } }
        set { core.withIndex { $0.setMemoryCapacity(newValue) } }
    }

    /// Bytes all namespaces may hold on disk; setting it evicts at once (files are deleted
    /// in the background).
    public var diskCapacity: Int {
        get { core.read { $0.diskCapacity } }
        set { core.withIndex { $0.setDiskCapacity(newValue) } }
    }

    /// Bytes in memory.
    public var currentMemoryUsage: Int { core.read { $0.memory.totalCost } }

    /// Bytes on disk, as accounted in the index.
    public var currentDiskUsage: Int { core.read { $0.diskUsed } }

    /// Usage and counts.
    public func stats() -> StoreStats { core.read { $0.stats() } }

    // MARK: Listing

    /// Every entry as a row for the dashboard: identity, tier, size, times, age, TTL left,
    /// validators, hits. Descriptions of disk-only entries not seen this session are read
    /// from the index (not from entry files) on the first listing.
    ///
    /// - Parameter now: the moment ages and TTLs are computed for. Default: the store's clock.
    public func entries(now: Date? = nil) async -> [EntrySummary] {
        let now = now ?? core.now()
        let first = core.read { $0.listing(now: now) }
        guard !first.missing.isEmpty, let disk else { return first.rows }
        for (namespace, keys) in first.missing {
            let infos = await disk.loadInfos(namespace: namespace, keys: keys)
            core.withIndex { $0.attachInfos(infos, namespace: namespace) }
        }
        return core.read { $0.listing(now: now) }.rows
    }

    /// Checks the index's invariants; empty when consistent (tests, crash checks).
    func invariantViolations() -> [String] {
        core.read { $0.invariantViolations() }
    }
}
