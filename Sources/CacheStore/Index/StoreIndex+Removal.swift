import Foundation
import HTTPCaching

extension StoreIndex {
    // MARK: One entry

    /// Removes an entry from both tiers; with a reason, reports it. Returns whether either
    /// tier held it.
    @discardableResult
    mutating func remove(_ storageKey: StorageKey, namespace: Int, reason: EvictionReason?) -> Bool {
        let item = memory.remove(storageKey)
        let record = removeRecord(storageKey, namespace: namespace)
        guard item != nil || record != nil else { return false }
        forget(storageKey, key: item?.entry.stored.key ?? record?.key, primary: record?.primary, namespace: namespace)
        let id = item?.entry.id ?? record?.info?.id
        if record != nil {
            enqueue(.delete(namespace: namespace, key: storageKey, body: record?.body, report: id == nil ? reason : nil))
        }
        if let reason, let id, let removedFrom = EntryTier(memory: item != nil, disk: record != nil) {
            let size = item?.entry.metadata.size ?? record?.size ?? 0
            changes.append(.evicted(Eviction(id: id, reason: reason, removedFrom: removedFrom, remaining: nil, size: size)))
        }
        return true
    }

    /// Removes the memory copy only (capacity); the disk copy, if any, stays.
    mutating func removeFromMemory(_ storageKey: StorageKey, reason: EvictionReason) {
        guard let item = memory.remove(storageKey) else { return }
        let onDisk = item.onDisk
        if !onDisk { forget(storageKey, key: item.entry.stored.key, primary: nil, namespace: item.namespace) }
        changes.append(
            .evicted(
                Eviction(
                    id: item.entry.id, reason: reason, removedFrom: .memory, remaining: onDisk ? .disk : nil,
                    size: item.entry.metadata.size)))
    }

    /// Removes the disk copy only; the memory copy, if any, stays.
    mutating func removeFromDisk(_ storageKey: StorageKey, namespace: Int, reason: EvictionReason) {
        guard let record = removeRecord(storageKey, namespace: namespace) else { return }
        let inMemory = memory.contains(storageKey)
        if !inMemory { forget(storageKey, key: record.key, primary: record.primary, namespace: namespace) }
        let id = record.info?.id ?? memory.peek(storageKey)?.entry.id
        enqueue(.delete(namespace: namespace, key: storageKey, body: record.body, report: id == nil ? reason : nil))
        if let id {
            changes.append(
                .evicted(
                    Eviction(id: id, reason: reason, removedFrom: .disk, remaining: inMemory ? .memory : nil, size: record.size)))
        }
    }

    /// Drops a variant that has no copy left from `keys` (or from `unresolved`).
    private mutating func forget(_ storageKey: StorageKey, key: CacheKey?, primary: StorageKey?, namespace: Int) {
        if let key {
            guard let variants = keys[key] else { return }
            keys[key] = variants.removing(storageKey)
        } else if let primary {
            guard let variants = namespaces[namespace].unresolved[primary] else { return }
            namespaces[namespace].unresolved[primary] = variants.removing(storageKey)
        }
    }

    // MARK: Purges

    /// Removes every variant of a key, each reported as evicted for `reason`; returns how many
    /// it removed.
    mutating func removeKey(_ key: CacheKey, namespace: Int, primary: StorageKey, reason: EvictionReason) -> Int {
        resolve(key, namespace: namespace, primary: primary)
        let variants = keys[key].map(Array.init) ?? []
        return variants.count(where: { remove($0, namespace: namespace, reason: reason) })
    }

    /// Removes one variant.
    mutating func removeEntry(_ id: EntryID, storageKey: StorageKey, namespace: Int, primary: StorageKey) {
        resolve(id.key, namespace: namespace, primary: primary)
        remove(storageKey, namespace: namespace, reason: .purged)
        changes.append(.purged(.entry(id)))
    }

    /// Removes everything (reported as one purge, not per entry); returns how many entries
    /// there were.
    mutating func removeAll() -> Int {
        let count = stats().entryCount
        memory.removeAll()
        keys = [:]
        for namespace in namespaces.indices {
            clearRecords(namespace: namespace)
            namespaces[namespace].unresolved = [:]
            namespaces[namespace].dirtyAccess = []
            if namespaces[namespace].isAvailable { enqueue(.deleteAll(namespace: namespace)) }
        }
        changes.append(.purged(.all))
        return count
    }

    /// Removes every entry whose retention ended at `now`; returns how many.
    @discardableResult
    mutating func removeExpired(now: Date, reportPurge: Bool = true) -> Int {
        let victims = select { created, expiresAt in expiresAt.map { $0 <= now } ?? false }
        for (storageKey, namespace) in victims { remove(storageKey, namespace: namespace, reason: .expired) }
        if reportPurge { changes.append(.purged(.expired)) }
        return victims.count
    }

    /// Removes every entry stored at or after `date`; returns how many.
    @discardableResult
    mutating func removeStored(since date: Date) -> Int {
        let victims = select { created, _ in created >= date }
        for (storageKey, namespace) in victims { remove(storageKey, namespace: namespace, reason: .purged) }
        changes.append(.purged(.since(date)))
        return victims.count
    }

    /// Entries in either tier for which `predicate(created, expiresAt)` holds.
    private func select(_ predicate: (Date, Date?) -> Bool) -> [(StorageKey, Int)] {
        var victims: [(StorageKey, Int)] = []
        var seen = Set<StorageKey>()
        memory.forEach { storageKey, item in
            if predicate(item.entry.metadata.created, item.entry.metadata.expiresAt) {
                victims.append((storageKey, item.namespace))
                seen.insert(storageKey)
            }
        }
        for namespace in namespaces.indices {
            namespaces[namespace].records.forEach { storageKey, record in
                if !seen.contains(storageKey), predicate(record.created, record.expiresAt) {
                    victims.append((storageKey, namespace))
                }
            }
        }
        return victims
    }

    // MARK: Failure

    /// Degrades a namespace to memory only after its disk failed: its disk records are
    /// dropped (entries also in memory stay there), its queued commands discarded.
    mutating func diskFailed(namespace: Int, message: String) {
        guard namespaces[namespace].isAvailable else { return }
        dropDisk(namespace: namespace)
        namespaces[namespace].hasFailed = true
        changes.append(.diskFailure(message))
    }

    /// Stops all disk use without reporting (the store was closed).
    mutating func detachDisk() {
        for namespace in namespaces.indices where namespaces[namespace].isAvailable { dropDisk(namespace: namespace) }
        commands = []
    }

    private mutating func dropDisk(namespace: Int) {
        namespaces[namespace].isAvailable = false
        var diskOnly: [(StorageKey, CacheKey?, StorageKey)] = []
        namespaces[namespace].records.forEach { storageKey, record in
            if !memory.contains(storageKey) { diskOnly.append((storageKey, record.key, record.primary)) }
        }
        for (storageKey, key, primary) in diskOnly { forget(storageKey, key: key, primary: primary, namespace: namespace) }
        clearRecords(namespace: namespace)
        namespaces[namespace].unresolved = [:]
        namespaces[namespace].dirtyAccess = []
        commands.removeAll { $0.namespace == namespace }
    }

    /// Removes every disk record of a namespace, clearing the `onDisk` marks of their memory copies.
    private mutating func clearRecords(namespace: Int) {
        var inMemory: [StorageKey] = []
        namespaces[namespace].records.forEach { storageKey, _ in
            if memory.contains(storageKey) { inMemory.append(storageKey) }
        }
        for storageKey in inMemory { memory.modify(storageKey) { $0.onDisk = false } }
        namespaces[namespace].records.removeAll()
    }
}
