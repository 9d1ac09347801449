/// The store tiers an entry lives in.
public enum StoreTier: String, Sendable, Hashable, Codable, CaseIterable {
    /// Memory only.
    case memory
    /// Disk only.
    case disk
    /// Memory and disk.
    case both
}

/// Identifies one stored entry: primary key and Vary variant.
public struct EntryRef: Sendable, Hashable, Codable {
    /// The primary cache key (`GET https://…`).
    public var key: String
    /// The Vary signature (empty when the response does not vary).
    public var variant: String

    /// Creates a reference.
    public init(key: String, variant: String = "") {
        self.key = key
        self.variant = variant
    }
}

/// `stored`: a response was stored.
public struct Stored: Sendable, Hashable, Codable {
    /// Which entry.
    public var entry: EntryRef
    /// Where it went.
    public var tier: StoreTier
    /// Its size in bytes (body and headers).
    public var size: Int
    /// Seconds of freshness left when stored (nil when unknown).
    public var ttl: Double?
    /// The response's ETag, if any.
    public var etag: String?
    /// The response's Last-Modified, if any.
    public var lastModified: String?
    /// The response's status.
    public var status: Int

    /// Creates the payload.
    public init(entry: EntryRef, tier: StoreTier, size: Int, ttl: Double?, etag: String?, lastModified: String?, status: Int) {
        self.entry = entry
        self.tier = tier
        self.size = size
        self.ttl = ttl
        self.etag = etag
        self.lastModified = lastModified
        self.status = status
    }
}

/// Why an entry left the store.
public enum EvictionReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// Room was needed (LRU).
    case capacity
    /// Its retention time passed.
    case expired
    /// A purge removed it.
    case purge
    /// Its file failed an integrity check.
    case corrupt
}

/// `evicted`: an entry left the store (or one tier of it).
public struct Evicted: Sendable, Hashable, Codable {
    /// Which entry.
    public var entry: EntryRef
    /// Why.
    public var reason: EvictionReason
    /// The tier it left (`both` when it is gone entirely).
    public var tier: StoreTier
    /// Its size in bytes.
    public var size: Int

    /// Creates the payload.
    public init(entry: EntryRef, reason: EvictionReason, tier: StoreTier, size: Int) {
        self.entry = entry
        self.reason = reason
        self.tier = tier
        self.size = size
    }
}

/// What a purge covered.
public enum PurgeScope: String, Sendable, Hashable, Codable {
    /// One primary key (all its variants).
    case key
    /// Everything.
    case all
    /// Every entry whose freshness has run out.
    case expired
    /// Everything stored since a date.
    case since
}

/// `purged`: a purge finished.
public struct Purged: Sendable, Hashable, Codable {
    /// What it covered.
    public var scope: PurgeScope
    /// The key, for `key` scope.
    public var key: String?
    /// How many entries it removed.
    public var count: Int

    /// Creates the payload.
    public init(scope: PurgeScope, key: String? = nil, count: Int) {
        self.scope = scope
        self.key = key
        self.count = count
    }
}

/// `storeStats`: usage and capacity of both tiers.
public struct StoreStats: Sendable, Hashable, Codable {
    /// Bytes used in memory.
    public var memoryUsed: Int
    /// Memory capacity in bytes.
    public var memoryCapacity: Int
    /// Bytes used on disk.
    public var diskUsed: Int
    /// Disk capacity in bytes (0 when there is no disk tier).
    public var diskCapacity: Int
    /// Number of distinct entries.
    public var entries: Int

    /// Creates the payload.
    public init(memoryUsed: Int, memoryCapacity: Int, diskUsed: Int, diskCapacity: Int, entries: Int) {
        self.memoryUsed = memoryUsed
        self.memoryCapacity = memoryCapacity
        self.diskUsed = diskUsed
        self.diskCapacity = diskCapacity
        self.entries = entries
    }
}

/// One entry in an ``EntriesSnapshot``.
public struct EntryInfo: Sendable, Hashable, Codable {
    /// Which entry.
    public var entry: EntryRef
    /// Where it lives.
    public var tier: StoreTier
    /// Size in bytes.
    public var size: Int
    /// Seconds of freshness left at the snapshot (negative when stale; nil when unknown).
    public var ttl: Double?
    /// Age in seconds at the snapshot.
    public var age: Double
    /// ETag, if any.
    public var etag: String?
    /// Last-Modified, if any.
    public var lastModified: String?
    /// Times served from the cache.
    public var hits: Int
    /// Seconds since the last access at the snapshot.
    public var idle: Double
    /// The stored status.
    public var status: Int

    /// Creates an entry description.
    public init(
        entry: EntryRef, tier: StoreTier, size: Int, ttl: Double?, age: Double, etag: String?,
        lastModified: String?, hits: Int, idle: Double, status: Int
    ) {
        self.entry = entry
        self.tier = tier
        self.size = size
        self.ttl = ttl
        self.age = age
        self.etag = etag
        self.lastModified = lastModified
        self.hits = hits
        self.idle = idle
        self.status = status
    }
}

/// `entries`: every stored entry at one moment.
public struct EntriesSnapshot: Sendable, Hashable, Codable {
    /// The entries.
    public var entries: [EntryInfo]

    /// Creates a snapshot.
    public init(entries: [EntryInfo]) { self.entries = entries }
}
