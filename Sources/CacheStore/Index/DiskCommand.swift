import Foundation

/// A change the disk actor must make so the disk matches the in-memory index. Commands are
/// queued under the index lock together with the index change they mirror, so one store
/// operation (its write and the evictions it caused) always lands in one batch and one
/// SQLite transaction.
enum DiskCommand: Sendable {
    /// Write the entry's file and row.
    case write(namespace: Int, entry: CacheEntry, primary: StorageKey, info: EntryInfo, generation: UInt64)
    /// Delete the row and file. With `report`, the index did not know the entry's identity:
    /// the actor reads it from the row and reports the eviction.
    case delete(namespace: Int, key: StorageKey, report: EvictionReason?)
    /// Delete every row and file of the namespace.
    case deleteAll(namespace: Int)

    var namespace: Int {
        switch self {
        case .write(let namespace, _, _, _, _), .delete(let namespace, _, _), .deleteAll(let namespace): return namespace
        }
    }
}

/// One disk record a lookup must read, as the index saw it.
struct DiskRead: Sendable {
    let storageKey: StorageKey
    let generation: UInt64
    let isWritten: Bool
}

/// The result of reading one record's file.
enum ReadOutcome: Sendable {
    /// The file was whole and verified.
    case entry(StorageKey, generation: UInt64, EntryFileCodec.Decoded)
    /// The file was missing, truncated, corrupted or tampered with.
    case corrupt(StorageKey, generation: UInt64, reason: String)
}

/// What a lookup must do next.
enum LookupPlan: Sendable {
    /// Complete from memory (empty: a miss).
    case answered([CacheEntry])
    /// The key has records whose URI is not known yet: compute its primary-key digest and resolve.
    case needsPrimaryKey
    /// Some variants are only on disk.
    case readDisk(memory: [CacheEntry], disk: [DiskRead])
}
