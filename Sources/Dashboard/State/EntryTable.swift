public import HTTPTypes
import CacheStore
public import CacheEvents
import SessionLog
import HTTPCaching

/// The stored responses the dashboard knows of, by instance and primary key, then variant, kept
/// current from `entries` snapshots and `stored`, `promoted`, `evicted`, `purged`, `served` and
/// `notModified` events. Each instance of a fleet has its own entries: a snapshot or a purge of
/// everything from one instance leaves the others' alone.
public struct EntryTable: Sendable, Hashable {
    /// A primary key in one instance's store.
    struct Key: Hashable, Sendable {
        var key: String
        var instance: UInt16
    }

    /// Records by instance and primary key, then by variant.
    private var byKey: [Key: [String: EntryRecord]] = [:]
    /// How many records there are.
    public private(set) var count = 0
    /// The expiry outlook last worked out, shared by the table's copies
    /// (``ExpiryOutlook/current(_:at:)``); bookkeeping, not part of equality.
    let expiryMemo = ExpiryOutlookMemo()

    /// An empty table.
    public init() {}

    // MARK: Reading

    /// The record for one entry of the first (or only) instance.
    public subscript(ref: EntryRef) -> EntryRecord? { byKey[Key(key: ref.key, instance: 0)]?[ref.variant] }

    /// The record for one entry of one instance.
    public subscript(id: EntryRowID) -> EntryRecord? { byKey[Key(key: id.ref.key, instance: id.instance)]?[id.ref.variant] }

    /// The variants an instance stores under a primary key.
    public func variants(of key: String, instance: UInt16 = 0) -> [EntryRecord] {
        byKey[Key(key: key, instance: instance)].map { Array($0.values) } ?? []
    }


    /// Every record, in no particular order.
    public var all: [EntryRecord] {
        var result: [EntryRecord] = []
        result.reserveCapacity(count)
        for variants in byKey.values { result.append(contentsOf: variants.values) }
        return result
    }

    /// Whether there are no records.
    public var isEmpty: Bool { count == 0 }

    /// Calls `body` with every record, in no particular order, without copying them into an
    /// array first.
    public func forEach(_ body: (EntryRecord) -> Void) {
        for variants in byKey.values {
            for record in variants.values { body(record) }
        }
    }

    // MARK: Events

    /// Replaces everything `instance` stores with a snapshot taken at `time` (`name`: the
    /// instance's name, empty with one instance).
    public mutating func replace(with snapshot: EntriesSnapshot, at time: Double, instance: UInt16 = 0, name: String = "") {
        removeAll(of: instance)
        for info in snapshot.entries {
            var record = EntryRecord(
                ref: info.entry, tier: info.tier, size: info.size, status: info.status, etag: info.etag,
                lastModified: info.lastModified, hits: info.hits, since: time, ageAtSince: max(0, info.age),
                expiresAt: info.ttl.map { time + $0 }, lifetime: info.ttl.map { max(0, $0) + max(0, info.age) },
                lastAccess: time - max(0, info.idle), tags: info.tags ?? [])
            record.instance = instance
            record.instanceName = name
            put(record)
        }
    }

    /// A response was stored by `instance` (new, replaced or freshened): hits and last access
    /// carry over. Its age starts at the one it had when stored (an origin's `Age` counts).
    public mutating func store(_ stored: Stored, at time: Double, instance: UInt16 = 0, name: String = "") {
        let age = max(0, stored.age ?? 0)
        func record(after previous: EntryRecord?) -> EntryRecord {
            var record = EntryRecord(
                ref: stored.entry, tier: stored.tier, size: stored.size, status: stored.status, etag: stored.etag,
                lastModified: stored.lastModified, hits: previous?.hits ?? 0, since: time, ageAtSince: age,
                expiresAt: stored.ttl.map { time + $0 }, lifetime: stored.ttl.map { max(0, $0) + age },
                lastAccess: previous?.lastAccess, tags: stored.tags ?? [])
            record.instance = instance
            record.instanceName = name
            return record
        }
        // One lookup of the key, the record changed in place (this runs for every miss).
        var added = false
        modifyVariants(of: Key(key: stored.entry.key, instance: instance)) { variants in
            if let index = variants.index(forKey: stored.entry.variant) {
                variants.values[index] = record(after: variants.values[index])
            } else {
                variants[stored.entry.variant] = record(after: nil)
                added = true
            }
        }
        if added { count += 1 }
    }

    /// A disk entry of `instance` was copied into memory.
    public mutating func promote(_ ref: EntryRef, instance: UInt16 = 0) {
        change(ref, instance: instance) { $0.tier = .both }
    }

    /// An entry of `instance` left one tier, or the store.
    public mutating func evict(_ evicted: Evicted, instance: UInt16 = 0) {
        var gone = false
        change(evicted.entry, instance: instance) { record in
            switch (evicted.tier, record.tier) {
            case (.memory, .both): record.tier = .disk
            case (.disk, .both): record.tier = .memory
            case (.memory, .disk), (.disk, .memory): break   // the copy that left was not known
            default: gone = true
            }
        }
        if gone { remove(evicted.entry, instance: instance) }
    }

    /// A purge of `instance` finished. Purged entries also arrive as evictions; this catches
    /// stores that report only the purge.
    public mutating func purge(_ purged: Purged, instance: UInt16 = 0) {
        switch purged.scope {
        case .all:
            removeAll(of: instance)
        case .key(let key):
            if let removed = byKey.removeValue(forKey: Key(key: key.description, instance: instance)) { count -= removed.count }
        case .entry, .expired, .since, .tag, .prefix, .filter:
            break   // which entries went is told by their evictions
        }
    }

    /// A request of `instance` for `key` was served from the cache at `time`: the variant its
    /// headers select counts a hit.
    public mutating func recordHit(key: String, requestHeaders: HTTPFields, at time: Double, instance: UInt16 = 0) {
        changeSelectedVariant(of: Key(key: key, instance: instance), requestHeaders: requestHeaders) { record in
            record.hits += 1
            record.lastAccess = time
        }
    }

    /// A 304 freshened the variant of `key` that `requestHeaders` select: its TTL starts anew.
    public mutating func freshen(key: String, requestHeaders: HTTPFields, ttl: Double?, at time: Double, instance: UInt16 = 0) {
        guard let ttl else { return }
        changeSelectedVariant(of: Key(key: key, instance: instance), requestHeaders: requestHeaders) { record in
            record.since = time
            record.ageAtSince = 0
            record.expiresAt = time + ttl
            record.lifetime = max(0, ttl)
        }
    }

    // MARK: Storage
    // Every change looks its key up once and changes the record in place: the fold runs for
    // every event, and hashing cache keys is most of its cost.

    /// Changes the variants under `key` in place, starting from none if there are none.
    private mutating func modifyVariants(of key: Key, _ body: (inout [String: EntryRecord]) -> Void) {
        body(&byKey[key, default: [:]])
    }

    /// Changes one record in place, if it exists.
    private mutating func change(_ ref: EntryRef, instance: UInt16, _ body: (inout EntryRecord) -> Void) {
        guard let keyIndex = byKey.index(forKey: Key(key: ref.key, instance: instance)),
            let index = byKey.values[keyIndex].index(forKey: ref.variant)
        else { return }
        body(&byKey.values[keyIndex].values[index])
    }

    /// Changes the variant of `key` a request with these headers selects (the only one, or the
    /// one whose Vary signature its header values match), if any.
    private mutating func changeSelectedVariant(
        of key: Key, requestHeaders: HTTPFields, _ body: (inout EntryRecord) -> Void
    ) {
        guard let keyIndex = byKey.index(forKey: key) else { return }
        let selected: [String: EntryRecord].Index? = {
            let variants = byKey.values[keyIndex]
            if variants.count == 1 { return variants.startIndex }
            return variants.firstIndex { VariantSignature.matches($0.key, requestHeaders: requestHeaders) }
        }()
        guard let selected else { return }
        body(&byKey.values[keyIndex].values[selected])
    }

    private mutating func put(_ record: EntryRecord) {
        let key = Key(key: record.ref.key, instance: record.instance)
        if byKey[key, default: [:]].updateValue(record, forKey: record.ref.variant) == nil { count += 1 }
    }

    /// Removes every record of `instance` (all of them when it is the only one).
    private mutating func removeAll(of instance: UInt16) {
        if byKey.keys.allSatisfy({ $0.instance == instance }) {
            byKey.removeAll(keepingCapacity: true)
            count = 0
            return
        }
        byKey = byKey.filter { $0.key.instance != instance }
        count = byKey.values.reduce(0) { $0 + $1.count }
    }

    private mutating func remove(_ ref: EntryRef, instance: UInt16) {
        guard let keyIndex = byKey.index(forKey: Key(key: ref.key, instance: instance)),
            byKey.values[keyIndex].removeValue(forKey: ref.variant) != nil
        else { return }
        count -= 1
        if byKey.values[keyIndex].isEmpty { byKey.remove(at: keyIndex) }
    }
}

extension EntryTable {
    // Equality and hashing of the records; the remembered outlook is bookkeeping.

    /// Whether the two tables hold the same records.
    public static func == (lhs: EntryTable, rhs: EntryTable) -> Bool {
        lhs.count == rhs.count && lhs.byKey == rhs.byKey
    }

    /// Hashes the records.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(byKey)
    }
}
