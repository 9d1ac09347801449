import CacheEvents
/// Follows each primary cache key's entry through a session's events — stored, served from
/// the cache, freshened by a 304, evicted, purged — so the HAR exporter can describe the
/// entry before and after every request (HAR's `cache` object).
struct CacheEntryTracker {
    /// What is known about one key's entry at a moment.
    struct Entry: Hashable {
        /// The ETag, if the stored response had one.
        var etag: String?
        /// Session time the entry stops being fresh, when its TTL is known.
        var expires: Double?
        /// Session time it was last stored, served or freshened.
        var lastAccess: Double
        /// Times served from the cache since it was stored.
        var hitCount: Int
    }

    private(set) var entries: [String: Entry] = [:]

    /// The entry for a key now, if it is in the cache.
    subscript(key: String) -> Entry? { entries[key] }

    /// A response was stored under `key`. Storing the same representation again (same ETag,
    /// as after a 304) keeps the hit count; a new one starts from zero.
    mutating func stored(_ stored: Stored, at time: Double) {
        let previous = entries[stored.entry.key]
        let sameRepresentation = previous != nil && stored.etag != nil && previous?.etag == stored.etag
        entries[stored.entry.key] = Entry(
            etag: stored.etag, expires: stored.ttl.map { time + $0 }, lastAccess: time,
            hitCount: sameRepresentation ? previous!.hitCount : 0)
    }

    /// The entry for `key` answered a request.
    mutating func served(key: String, at time: Double) {
        var entry = entries[key] ?? Entry(etag: nil, expires: nil, lastAccess: time, hitCount: 0)
        entry.hitCount += 1
        entry.lastAccess = time
        entries[key] = entry
    }

    /// A 304 freshened the entry for `key`.
    mutating func freshened(key: String, ttl: Double?, at time: Double) {
        guard var entry = entries[key] else { return }
        if let ttl { entry.expires = time + ttl }
        entry.lastAccess = time
        entries[key] = entry
    }

    /// The lookup found an entry for `key` the log had not shown being stored (it predates
    /// the log): remember what the lookup and validators tell.
    /// An entry already known only gains the ETag if it had none.
    mutating func discovered(key: String, etag: String?, ttl: Double?, at time: Double) {
        guard var entry = entries[key] else {
            entries[key] = Entry(etag: etag, expires: ttl.map { time + $0 }, lastAccess: time, hitCount: 0)
            return
        }
        if entry.etag == nil, let etag {
            entry.etag = etag
            entries[key] = entry
        }
    }

    /// The entry left the store entirely.
    mutating func removed(key: String) {
        entries.removeValue(forKey: key)
    }

    /// Everything was purged.
    mutating func removeAll() {
        entries.removeAll()
    }
}
