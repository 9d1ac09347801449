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
        // Within the share of each tier (`size`, as the docs and the dashboard count it), and
        // small enough that what it really takes fits the tier: else it would push every other
        // entry out, and then itself (a share of 1 on a small tier).
        let footprint = EntryFootprint.memory(entry)
        let toMemory = policy != .notAllowed && size <= memoryEntryLimit && footprint <= memoryCapacity
        let fitsDisk = size <= diskEntryLimit(namespace: namespace) && EntryFootprint.disk(size: size) <= diskCapacity(namespace: namespace)
        var diskPrimary = policy == .allowed && namespaces[namespace].isAvailable && fitsDisk ? primary : nil
        if diskPrimary != nil, toMemory, !diskQueueHasRoom(for: footprint) {
            // The disk is behind: keep this one in memory only rather than grow the queue.
            diskPrimary = nil
            diskWritesSkipped += 1
        }
        let toDisk = diskPrimary != nil
        guard !entry.metadata.isExpired(at: now), toMemory || toDisk else {
            // The new response supersedes any stored copy of this variant, which is reported
            // gone: the new one's retention has ended, or it is too large for every tier.
            remove(storageKey, namespace: namespace, reason: entry.metadata.isExpired(at: now) ? .expired : .capacity)
            return nil
        }
        var entry = entry
        entry.metadata.tier = toDisk ? (toMemory ? .both : .disk) : .memory
        let body = toDisk ? bodyWrite(for: &entry, namespace: namespace) : nil
        if !toDisk { entry.bodyID = nil }
        if toMemory {
            memory.insert(
                MemoryItem(entry: entry, namespace: namespace, onDisk: toDisk), for: storageKey, cost: footprint)
        } else {
            memory.remove(storageKey)
        }
        if let primary = diskPrimary, let body {
            let record = DiskRecord(
                primary: primary, key: key, size: size, created: entry.metadata.created,
                lastAccess: entry.metadata.lastAccess, accessCount: entry.metadata.accessCount,
                freshUntil: entry.metadata.freshUntil, expiresAt: entry.metadata.expiresAt, body: body.id, info: info,
                generation: generation, isWritten: false, accessDirty: false)
            insertRecord(record, for: storageKey, namespace: namespace)
            enqueue(.write(namespace: namespace, entry: entry, primary: primary, info: info, generation: generation, body: body))
        } else if let removed = removeRecord(storageKey, namespace: namespace) {
            enqueue(.delete(namespace: namespace, key: storageKey, body: removed.body, report: nil))
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

    /// The body file a disk write of `entry` names. A freshen (the entry claims the body id
    /// of the record it replaces) keeps that body and writes metadata only; anything else
    /// gets a new id — a body file is never overwritten, so no metadata file can name a body
    /// of another response, whatever moment a crash picks.
    private func bodyWrite(for entry: inout CacheEntry, namespace: Int) -> DiskCommand.BodyWrite {
        let previous = namespaces[namespace].records.peek(entry.storageKey)?.body
        if let claimed = entry.bodyID, claimed == previous {
            return DiskCommand.BodyWrite(id: claimed, isStored: true, replaced: nil)
        }
        let id = BodyID(session: bodySession, counter: generation)
        entry.bodyID = id
        return DiskCommand.BodyWrite(id: id, isStored: false, replaced: previous)
    }

    /// Takes in the files a lookup read: verified entries are promoted to memory (when they
    /// fit) and returned; corrupt ones are removed and reported. Results for records changed since the read was planned are dropped in
    /// favour of the newer copy in memory.
    mutating func applyReads(
        _ outcomes: [ReadOutcome], key: CacheKey, namespace: Int, now: Date
    ) -> (entries: [CacheEntry], corrupt: [(StorageKey, reason: String)]) {
        var result: [CacheEntry] = []
        var corrupt: [(StorageKey, reason: String)] = []
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
                    corrupt.append((storageKey, "it holds another key's response"))
                    continue
                }
                if var entry = memory.peek(storageKey)?.entry {
                    entry.metadata.tier = .both
                    result.append(entry)
                    continue
                }
                result.append(promote(decoded, record: record, storageKey: storageKey, namespace: namespace))
            case .corrupt(let storageKey, let generation, let reason):
                // A record replaced or evicted while its file was read is not corrupt: its file
                // went with it (a "file missing" under load), and nothing is said.
                guard let record = namespaces[namespace].records.peek(storageKey), record.generation == generation else { continue }
                remove(storageKey, namespace: namespace, reason: .corrupt)
                corrupt.append((storageKey, "\(reason)"))
            }
        }
        return (result, corrupt)
    }

    /// Makes a memory copy of a verified disk entry (when it fits) and returns the entry.
    ///
    /// Creation, freshness and retention come from the metadata file, not the row: the file
    /// is the unit a freshen replaces atomically, and after a crash between its rename and
    /// the commit of its row the row still holds the previous version's times. The record
    /// takes the file's values (and its body id) so the index agrees with what is served.
    private mutating func promote(
        _ decoded: EntryFileCodec.Decoded, record: DiskRecord, storageKey: StorageKey, namespace: Int
    ) -> CacheEntry {
        let id = EntryID(decoded.stored)
        let needsInfo = record.info == nil
        let described = needsInfo ? info(for: decoded.stored) : nil
        if needsInfo || record.body != decoded.bodyID || record.created != decoded.created
            || record.freshUntil != decoded.freshUntil || record.expiresAt != decoded.expiresAt
        {
            namespaces[namespace].records.modify(storageKey) { record in
                if let described { record.info = described }
                record.body = decoded.bodyID
                record.created = decoded.created
                record.freshUntil = decoded.freshUntil
                record.expiresAt = decoded.expiresAt
            }
        }
        let metadata = EntryMetadata(
            id: id, created: decoded.created, lastAccess: record.lastAccess, accessCount: record.accessCount,
            size: record.size, tier: .disk, freshUntil: decoded.freshUntil, expiresAt: decoded.expiresAt)
        var entry = CacheEntry(stored: decoded.stored, body: decoded.body, metadata: metadata, storageKey: storageKey)
        entry.bodyID = decoded.bodyID
        guard record.size <= memoryEntryLimit else { return entry }
        entry.metadata.tier = .both
        memory.insert(
            MemoryItem(entry: entry, namespace: namespace, onDisk: true), for: storageKey, cost: EntryFootprint.memory(entry))
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

    /// Takes in body ids the repair pass found in metadata files where the rows said another
    /// (`old`): records still as loaded take the new id, and so do commands queued since open
    /// (deletes by the open-time sweep or evictions, stores replacing the entry) that would
    /// otherwise unlink the old, already removed body and leave the live one behind.
    mutating func correctBodies(_ correction: [StorageKey: (old: BodyID?, new: BodyID)], namespace: Int) {
        for (key, ids) in correction {
            namespaces[namespace].records.modify(key) { record in
                // A record stored again since open has its own body.
                if record.isWritten, record.generation == 0, record.body == ids.old { record.body = ids.new }
            }
        }
        commands = commands.map { command in
            switch command {
            case .delete(let owner, let key, let body, let report) where owner == namespace:
                guard let ids = correction[key], body == ids.old else { return command }
                return .delete(namespace: owner, key: key, body: ids.new, report: report)
            case .write(let owner, let entry, let primary, let info, let generation, let body) where owner == namespace:
                guard let ids = correction[entry.storageKey], body.replaced == ids.old, !body.isStored else { return command }
                let fixed = DiskCommand.BodyWrite(id: body.id, isStored: false, replaced: ids.new)
                return .write(namespace: owner, entry: entry, primary: primary, info: info, generation: generation, body: fixed)
            default:
                return command
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
