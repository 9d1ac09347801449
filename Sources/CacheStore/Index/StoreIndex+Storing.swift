import Foundation
import HTTPCaching

extension StoreIndex {
    /// Stores an entry: into memory now, and (policy and size permitting) queued for disk.
    /// A variant with the same identity is replaced in both tiers. Returns where it went, or
    /// `nil` when it is kept nowhere (expired already, or too large for every allowed tier).
    /// `primary` is the key's digest, `nil` for a namespace without a disk (it names disk
    /// records only, so a memory-only store never computes it).
    mutating func store(
        _ entry: CacheEntry, namespace: Int, primary: StorageKey?, info: EntryInfo, policy: StoragePolicy, now: Date
    ) -> EntryTier? {
        let storageKey = entry.storageKey
        let key = entry.stored.key
        if let primary { resolve(key, namespace: namespace, primary: primary) }
        generation &+= 1
        let size = entry.metadata.size
        let toMemory = policy != .notAllowed && size <= memoryEntryLimit
        let diskPrimary = policy == .allowed && namespaces[namespace].isAvailable && size <= diskEntryLimit(namespace: namespace) ? primary : nil
        let toDisk = diskPrimary != nil
        guard !entry.metadata.isExpired(at: now), toMemory || toDisk else {
            // The new response supersedes any stored copy of this variant.
            remove(storageKey, namespace: namespace, reason: nil)
            return nil
        }
        var entry = entry
        entry.metadata.tier = toDisk ? (toMemory ? .both : .disk) : .memory
        if toMemory {
            memory.insert(MemoryItem(entry: entry, namespace: namespace, onDisk: toDisk), for: storageKey, cost: size)
        } else {
            memory.remove(storageKey)
        }
        if let primary = diskPrimary {
            let record = DiskRecord(
                primary: primary, key: key, size: size, created: entry.metadata.created,
                lastAccess: entry.metadata.lastAccess, accessCount: entry.metadata.accessCount,
                freshUntil: entry.metadata.freshUntil, expiresAt: entry.metadata.expiresAt, info: info,
                generation: generation, isWritten: false, accessDirty: false)
            insertRecord(record, for: storageKey, namespace: namespace)
            enqueue(.write(namespace: namespace, entry: entry, primary: primary, info: info, generation: generation))
        } else if removeRecord(storageKey, namespace: namespace) != nil {
            enqueue(.delete(namespace: namespace, key: storageKey, report: nil))
        }
        if keys[key] == nil {
            keys[key] = VariantKeys(storageKey)
        } else {
            keys[key]!.insert(storageKey)
        }
        evictMemoryIfNeeded()
        evictDiskIfNeeded()
        guard let tier = EntryTier(memory: memory.contains(storageKey), disk: namespaces[namespace].records.contains(storageKey))
        else { return nil }
        changes.append(
            .stored(
                summary(
                    info: info, namespace: namespace, tier: tier, size: size, created: entry.metadata.created,
                    lastAccess: entry.metadata.lastAccess, hits: entry.metadata.accessCount,
                    freshUntil: entry.metadata.freshUntil, expiresAt: entry.metadata.expiresAt, now: now)))
        return tier
    }

    /// Takes in the files a lookup read: verified entries are promoted to memory (when they
    /// fit) and returned; corrupt ones are removed and reported. Results for records changed since the read was planned are dropped in
    /// favour of the newer copy in memory.
    mutating func applyReads(_ outcomes: [ReadOutcome], key: CacheKey, namespace: Int, now: Date) -> [CacheEntry] {
        var result: [CacheEntry] = []
        for outcome in outcomes {
            switch outcome {
            case .entry(let storageKey, let generation, let decoded):
                guard let record = namespaces[namespace].records.peek(storageKey), record.generation == generation else {
                    if let item = memory.peek(storageKey) {
                        var entry = item.entry
                        entry.metadata.tier = item.onDisk ? .both : .memory
                        result.append(entry)
                    }
                    continue
                }
                guard decoded.stored.key == key else {
                    remove(storageKey, namespace: namespace, reason: .corrupt)
                    continue
                }
                if var entry = memory.peek(storageKey)?.entry {
                    entry.metadata.tier = .both
                    result.append(entry)
                    continue
                }
                result.append(promote(decoded, record: record, storageKey: storageKey, namespace: namespace))
            case .corrupt(let storageKey, let generation, _):
                guard let record = namespaces[namespace].records.peek(storageKey), record.generation == generation else { continue }
                remove(storageKey, namespace: namespace, reason: .corrupt)
            }
        }
        return result
    }

    /// Makes a memory copy of a verified disk entry (when it fits) and returns the entry.
    private mutating func promote(
        _ decoded: EntryFileCodec.Decoded, record: DiskRecord, storageKey: StorageKey, namespace: Int
    ) -> CacheEntry {
        let id = EntryID(decoded.stored)
        if record.info == nil {
            namespaces[namespace].records.modify(storageKey) { $0.info = EntryInfo(decoded.stored) }
        }
        let metadata = EntryMetadata(
            id: id, created: record.created, lastAccess: record.lastAccess, accessCount: record.accessCount,
            size: record.size, tier: .disk, freshUntil: record.freshUntil, expiresAt: record.expiresAt)
        var entry = CacheEntry(stored: decoded.stored, body: decoded.body, metadata: metadata, storageKey: storageKey)
        guard record.size <= memoryEntryLimit else { return entry }
        entry.metadata.tier = .both
        memory.insert(MemoryItem(entry: entry, namespace: namespace, onDisk: true), for: storageKey, cost: record.size)
        changes.append(.promoted(id))
        evictMemoryIfNeeded()
        if !memory.contains(storageKey) { entry.metadata.tier = .disk }
        return entry
    }

    /// Marks records as on disk after their batch committed (unless stored again since).
    mutating func markWritten(_ written: [(key: StorageKey, generation: UInt64)], namespace: Int) {
        for (storageKey, generation) in written {
            namespaces[namespace].records.modify(storageKey) { record in
                if record.generation == generation { record.isWritten = true }
            }
        }
    }

    /// Attaches descriptions loaded from the index for the listing.
    mutating func attachInfos(_ infos: [StorageKey: EntryInfo], namespace: Int) {
        for (storageKey, info) in infos {
            namespaces[namespace].records.modify(storageKey) { record in
                if record.info == nil { record.info = info }
            }
        }
    }
}
