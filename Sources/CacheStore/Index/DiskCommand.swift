import Foundation

/// A change the disk actor must make so the disk matches the in-memory index. Commands are
/// queued under the index lock together with the index change they mirror, so one store
/// operation (its write and the evictions it caused) always lands in one batch and one
/// SQLite transaction.
enum DiskCommand: Sendable {
    /// Write the entry's metadata file and row, and its body file unless `body` is on disk already.
    case write(namespace: Int, entry: CacheEntry, primary: StorageKey, info: EntryInfo, generation: UInt64, body: BodyWrite)
    /// Delete the row and the files (`body`: its body file's id, `nil` for a format-1 file).
    /// With `report`, the index did not know the entry's identity: the actor reads it from
    /// the row and reports the eviction.
    case delete(namespace: Int, key: StorageKey, body: BodyID?, report: EvictionReason?)
    /// Delete every row and file of the namespace.
    case deleteAll(namespace: Int)

    var namespace: Int {
        switch self {
        case .write(let namespace, _, _, _, _, _), .delete(let namespace, _, _, _), .deleteAll(let namespace): return namespace
        }
    }

    /// Which body file a write's metadata names.
    struct BodyWrite: Sendable {
        /// The body's id (the entry's ``CacheEntry/bodyID``).
        let id: BodyID
        /// Whether that body file is on disk already (or queued before this write): a 304
        /// freshen, which writes the metadata file only.
        let isStored: Bool
        /// The body file of the version this write replaces, unlinked once the row commits.
        let replaced: BodyID?
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
