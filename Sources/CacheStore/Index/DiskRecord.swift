import Foundation
import HTTPCaching

/// What the in-memory index knows about one entry on disk: enough to find, order, expire and
/// account for it without reading its file.
struct DiskRecord: Sendable {
    /// Digest of its primary key (how a key finds records whose URI is not yet known).
    let primary: StorageKey
    /// Its primary key, once known (stored this session, or resolved by a lookup).
    var key: CacheKey?
    var size: Int
    var created: Date
    var lastAccess: Date
    var accessCount: Int
    var freshUntil: Date?
    var expiresAt: Date?
    /// The id of its body file; `nil` for a format-1 file (body inline, from before the split).
    var body: BodyID?
    /// The listing description, once known (stored, read, or loaded for the listing).
    var info: EntryInfo? {
        get { infoBox?.info }
        set { infoBox = newValue.map(InfoBox.init) }
    }
    /// Holds `info` by reference: it is large and usually absent, and a small record keeps
    /// loading 100,000 of them at open fast.
    private var infoBox: InfoBox?
    /// Which store made it; a read result for an older generation is stale.
    var generation: UInt64
    /// Whether its file and row are on disk (false while its write is queued).
    var isWritten: Bool
    /// Whether its access counters changed since they were last written.
    var accessDirty: Bool

    init(
        primary: StorageKey, key: CacheKey?, size: Int, created: Date, lastAccess: Date, accessCount: Int,
        freshUntil: Date?, expiresAt: Date?, body: BodyID?, info: EntryInfo?, generation: UInt64, isWritten: Bool,
        accessDirty: Bool
    ) {
        self.primary = primary
        self.key = key
        self.size = size
        self.created = created
        self.lastAccess = lastAccess
        self.accessCount = accessCount
        self.freshUntil = freshUntil
        self.expiresAt = expiresAt
        self.body = body
        self.generation = generation
        self.isWritten = isWritten
        self.accessDirty = accessDirty
        self.info = info
    }

    func isExpired(at now: Date) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt <= now
    }

    private final class InfoBox: Sendable {
        let info: EntryInfo

        init(_ info: EntryInfo) {
            self.info = info
        }
    }
}

/// The disk side of one namespace in the in-memory index.
struct NamespaceIndex: Sendable {
    /// The namespace's name, for summaries and reports.
    let name: String
    /// Its own disk limit, if any.
    let limit: Int?
    /// Whether it was given a directory.
    let wasConfiguredForDisk: Bool
    /// Whether entries may be written to its disk (it has a directory that has not failed).
    var isAvailable: Bool
    /// Whether its disk failed (it is degraded to memory only).
    var hasFailed = false
    /// Its records in access order (cost = size).
    var records = LRUList<StorageKey, DiskRecord>()
    /// Records whose primary key is not known yet, by primary-key digest.
    var unresolved: [StorageKey: VariantKeys] = [:]
    /// Records whose access counters must be written.
    var dirtyAccess: [StorageKey] = []

    init(name: String, limit: Int?, hasDisk: Bool) {
        self.name = name
        self.limit = limit
        self.wasConfiguredForDisk = hasDisk
        self.isAvailable = hasDisk
    }
}
