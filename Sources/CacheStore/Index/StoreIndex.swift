import Foundation
import HTTPCaching
import HTTPTypes

/// Everything the store knows, in one value guarded by one lock: the memory tier, the
/// in-memory index of every disk namespace, which variants each primary key has, and the
/// queue of disk commands that mirror index changes.
///
/// One lock for both tiers makes "are all variants of this key in memory?" a single
/// consistent question, so a memory hit never touches the disk and never races a disk
/// change. Every operation is O(variants of the key) or O(evicted entries); only the sweeps,
/// the listing and the stats walk all entries.
///
/// Invariants (checked by ``checkInvariants()`` in tests):
/// - `keys[k]` lists every variant of `k` that is in memory or on disk (or queued for it);
/// - a disk record is either listed in `keys` (its `key` is set) or in its namespace's
///   `unresolved` under its primary digest — never both;
/// - a memory item is always listed in `keys`.
struct StoreIndex: Sendable {
    /// A memory-tier value: the entry, its namespace, and whether the disk also has it (kept
    /// here so a memory hit need not look into the disk index).
    struct MemoryItem: Sendable {
        var entry: CacheEntry
        let namespace: Int
        var onDisk: Bool
    }

    var memory = LRUList<StorageKey, MemoryItem>()
    var memoryCapacity: Int
    var diskCapacity: Int
    let maximumEntryShare: Double
    /// Variants of each primary key whose records are resolved.
    var keys: [CacheKey: VariantKeys] = [:]
    var namespaces: [NamespaceIndex]
    /// Disk work not yet taken by the disk actor.
    var commands: [DiskCommand] = []
    /// Bytes of responses in `commands`' writes: they stay in the heap until the disk actor
    /// has written them, so the queue is bounded by ``diskBacklogLimit``.
    var queuedWriteBytes = 0
    /// Above this many queued bytes a new response is kept in memory only (see
    /// ``StoreConfiguration/diskBacklogLimit``): when the disk falls behind (a slow or
    /// saturated device, a `syncfs` waiting for other processes' writes), the queue does not
    /// grow without bound.
    let diskBacklogLimit: Int
    /// Responses kept in memory only because the disk was behind, since the disk actor last
    /// took the queue (it logs them).
    var diskWritesSkipped = 0
    /// Whether the disk actor must be woken (commands went from none to some).
    var wakeNeeded = false
    /// Changes to report once the lock is released.
    var changes: [StoreChange] = []
    var generation: UInt64 = 0
    /// Where this session's body ids start (``BodyID/init(session:counter:)``, counted by
    /// `generation`): random, so ids never repeat those of earlier sessions on the same disk.
    let bodySession = UInt64.random(in: 0...UInt64.max)
    /// The field whose tags each entry's ``EntryInfo`` carries (``StoreConfiguration/tagField``).
    var tagField: HTTPField.Name?

    init(
        memoryCapacity: Int, diskCapacity: Int, maximumEntryShare: Double, diskBacklogLimit: Int = StoreConfiguration.defaultDiskBacklogLimit,
        namespaces: [NamespaceIndex]
    ) {
        self.memoryCapacity = memoryCapacity
        self.diskCapacity = diskCapacity
        self.maximumEntryShare = maximumEntryShare
        self.diskBacklogLimit = diskBacklogLimit
        self.namespaces = namespaces
    }

    /// The description of `stored`, with its tags.
    func info(for stored: StoredResponse) -> EntryInfo {
        EntryInfo(stored, tags: tagField.map { SurrogateKeys.tags(in: stored.response.headerFields, fieldName: $0) } ?? [])
    }

    // MARK: Lookup

    /// What a lookup of `key` needs: the answer from memory, a primary-key digest (when records
    /// whose URI is unknown exist and `primary` is not given), or disk reads.
    mutating func plan(for key: CacheKey, namespace: Int, primary: StorageKey? = nil, now: Date) -> LookupPlan {
        var listed = keys[key]
        if listed == nil {
            if namespaces[namespace].unresolved.isEmpty { return .answered([]) }
            guard let primary else { return .needsPrimaryKey }
            resolve(key, namespace: namespace, primary: primary)
            listed = keys[key]
        }
        guard let variants = listed else { return .answered([]) }
        // The common case: one variant, in memory, at the slot the key remembers.
        if variants.count == 1, let item = memory.peek(slot: variants.firstSlot, expecting: variants.first),
            !item.entry.metadata.isExpired(at: now)
        {
            var entry = item.entry
            entry.metadata.tier = item.onDisk ? .both : .memory
            entry.memorySlot = variants.firstSlot
            return .answered([entry])
        }
        var found: [CacheEntry] = []
        found.reserveCapacity(variants.count)
        var reads: [DiskRead] = []
        var expired: [StorageKey] = []
        variants.forEachKey { storageKey in
            if let slot = memory.slot(of: storageKey), let item = memory.peek(slot: slot, expecting: storageKey) {
                if item.entry.metadata.isExpired(at: now) {
                    expired.append(storageKey)
                    return
                }
                var entry = item.entry
                entry.metadata.tier = item.onDisk ? .both : .memory
                entry.memorySlot = slot
                found.append(entry)
                if storageKey == variants.first { keys[key]?.firstSlot = slot }
            } else if let record = namespaces[namespace].records.peek(storageKey) {
                if record.isExpired(at: now) {
                    expired.append(storageKey)
                    return
                }
                reads.append(DiskRead(storageKey: storageKey, generation: record.generation, isWritten: record.isWritten))
            }
        }
        for storageKey in expired { remove(storageKey, namespace: namespace, reason: .expired) }
        return reads.isEmpty ? .answered(found) : .readDisk(memory: found, disk: reads)
    }

    /// Lists under `key` the records found by its primary-key digest (records loaded at open
    /// carry only the digest, so the URI stays private in an encrypted index).
    mutating func resolve(_ key: CacheKey, namespace: Int, primary: StorageKey) {
        guard keys[key] == nil, let pending = namespaces[namespace].unresolved.removeValue(forKey: primary) else { return }
        pending.forEachKey { storageKey in namespaces[namespace].records.modify(storageKey) { $0.key = key } }
        keys[key] = pending
    }

    /// Counts a served entry: hits and last access in both tiers, and LRU order.
    mutating func recordAccess(_ storageKey: StorageKey, slot: Int32, namespace: Int, now: Date) {
        let onDisk = memory.touch(slot: slot, expecting: storageKey) { item -> Bool in
            item.entry.metadata.lastAccess = now
            item.entry.metadata.accessCount += 1
            return item.onDisk
        }
        guard onDisk != false else { return }  // in memory only: nothing more to count
        let wasDirty = namespaces[namespace].records.touch(storageKey) { record in
            record.lastAccess = now
            record.accessCount += 1
            defer { record.accessDirty = true }
            return record.accessDirty
        }
        if wasDirty == false { namespaces[namespace].dirtyAccess.append(storageKey) }
    }

    // MARK: Queue and reports

    mutating func enqueue(_ command: DiskCommand) {
        if commands.isEmpty { wakeNeeded = true }
        if case .write(_, let entry, _, _, _, _) = command { queuedWriteBytes += EntryFootprint.memory(entry) }
        commands.append(command)
    }

    /// Whether a response whose memory footprint is `size` bytes may join the disk queue: always when nothing is
    /// queued (so any entry the tier accepts can be written), otherwise while the queue stays
    /// within ``diskBacklogLimit``.
    func diskQueueHasRoom(for size: Int) -> Bool {
        queuedWriteBytes == 0 || queuedWriteBytes + size <= diskBacklogLimit
    }

    /// The queued disk commands, leaving the queue empty.
    mutating func takeCommands() -> [DiskCommand] {
        defer {
            commands = []
            queuedWriteBytes = 0
        }
        return commands
    }

    /// The queued commands and every namespace's pending access updates, taken together so
    /// an update never overtakes the write of its row; and how many responses were kept in
    /// memory only since the last batch because the queue was full.
    mutating func takeBatch() -> (
        commands: [DiskCommand], accesses: [[(key: StorageKey, lastAccess: Date, accessCount: Int)]], skippedWrites: Int
    ) {
        defer { diskWritesSkipped = 0 }
        return (takeCommands(), namespaces.indices.map { takeAccessUpdates(namespace: $0) }, diskWritesSkipped)
    }

    /// Access counters to write for a namespace, clearing their dirty marks.
    mutating func takeAccessUpdates(namespace: Int) -> [(key: StorageKey, lastAccess: Date, accessCount: Int)] {
        guard !namespaces[namespace].dirtyAccess.isEmpty else { return [] }
        var updates: [(key: StorageKey, lastAccess: Date, accessCount: Int)] = []
        for storageKey in namespaces[namespace].dirtyAccess {
            let values = namespaces[namespace].records.modify(storageKey) { record in
                record.accessDirty = false
                return (record.lastAccess, record.accessCount)
            }
            if let values { updates.append((storageKey, values.0, values.1)) }
        }
        namespaces[namespace].dirtyAccess = []
        return updates
    }

    /// Whether the disk actor must be woken, clearing the mark.
    mutating func takeWake() -> Bool {
        defer { wakeNeeded = false }
        return wakeNeeded
    }

    /// The changes to report, leaving none.
    mutating func takeChanges() -> [StoreChange] {
        if changes.isEmpty { return [] }
        defer { changes = [] }
        return changes
    }

    // MARK: Limits

    /// The size above which an entry is not kept in memory.
    var memoryEntryLimit: Int { Self.share(maximumEntryShare, of: memoryCapacity) }

    /// The disk a namespace may fill: the store's, or its own limit when smaller.
    func diskCapacity(namespace: Int) -> Int { min(diskCapacity, namespaces[namespace].limit ?? Int.max) }

    /// The size above which an entry is not written to a namespace's disk.
    func diskEntryLimit(namespace: Int) -> Int { Self.share(maximumEntryShare, of: diskCapacity(namespace: namespace)) }

    /// `share` of `capacity` in bytes (a capacity of `Int.max` with a share of 1 is past what a
    /// `Double` converts back: `Int.max`).
    private static func share(_ share: Double, of capacity: Int) -> Int {
        let bytes = Double(capacity) * share
        return bytes >= Double(Int.max) ? Int.max : Int(bytes)
    }

    // MARK: Disk records

    /// Adds or replaces a disk record, keeping the memory copy's `onDisk` mark true.
    mutating func insertRecord(_ record: DiskRecord, for storageKey: StorageKey, namespace: Int) {
        namespaces[namespace].records.insert(record, for: storageKey, cost: EntryFootprint.disk(size: record.size))
        memory.modify(storageKey) { $0.onDisk = true }
    }

    /// Removes a disk record, keeping the memory copy's `onDisk` mark false.
    @discardableResult
    mutating func removeRecord(_ storageKey: StorageKey, namespace: Int) -> DiskRecord? {
        guard let record = namespaces[namespace].records.remove(storageKey) else { return nil }
        memory.modify(storageKey) { $0.onDisk = false }
        return record
    }

    /// Bytes on disk over all namespaces.
    var diskUsed: Int { namespaces.reduce(0) { $0 + $1.records.totalCost } }
}
