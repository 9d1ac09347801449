import CacheEvents
public import CacheStore
public import TrafficFilter

/// An entry as a filter sees it at one moment: TTL and age move with `now`.
///
/// - `method` and `url` come from the key (`GET https://…`); `host` from that URL.
/// - `status`, `size` (the stored size), `ttl`, `age`, `tier` and `tag` are the entry's (its
///   tags as its `stored` event or the last `entries` snapshot named them).
/// - `outcome`, `reason`, `h:NAME` and `bg` do not apply to entries: they never match.
public struct EntryRow: FilterSubject, Sendable {
    /// The entry.
    public var entry: EntryRecord
    /// Session seconds at which TTL and age are read.
    public var now: Double

    /// The entry at `now`.
    public init(_ entry: EntryRecord, now: Double) {
        self.entry = entry
        self.now = now
    }

    /// The key's method.
    public var filterMethod: String? {
        entry.ref.key.firstIndex(of: " ").map { String(entry.ref.key[..<$0]) }
    }

    /// The key's URL (the whole key when it has no method).
    public var filterURL: String? {
        let key = entry.ref.key
        return key.firstIndex(of: " ").map { String(key[key.index(after: $0)...]) } ?? key
    }

    /// The stored status.
    public var filterStatus: Int? { entry.status }
    /// Freshness left at ``now``.
    public var filterTTL: Double? { entry.ttl(at: now) }
    /// Age at ``now``.
    public var filterAge: Double? { entry.age(at: now) }
    /// The stored size.
    public var filterSize: Int? { entry.size }
    /// Where it lives.
    public var filterTier: EntryTier? { entry.tier }
    /// Its tags.
    public var filterTags: [String]? { entry.tags }
    /// The instance that stores it, when several are attached.
    public var filterInstance: String? { entry.instanceName.isEmpty ? nil : entry.instanceName }
}
