public import CacheStore
import Foundation
import HTTPCaching

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
    public var tier: EntryTier
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
    /// Its tags (surrogate keys), `nil` when it has none; absent from logs written before tags.
    public var tags: [String]?
    /// Its HTTP age in seconds when stored (RFC 9111 §4.2.3: the origin's `Age` plus the time
    /// the response took to arrive), so that `ttl` + `age` is its freshness lifetime; `nil`
    /// when unknown (logs written before 27 November 2026).
    public var age: Double?

    /// Creates the payload.
    public init(
        entry: EntryRef, tier: EntryTier, size: Int, ttl: Double?, etag: String?, lastModified: String?, status: Int,
        tags: [String]? = nil, age: Double? = nil
    ) {
        self.entry = entry
        self.tier = tier
        self.size = size
        self.ttl = ttl
        self.etag = etag
        self.lastModified = lastModified
        self.status = status
        self.tags = tags
        self.age = age
    }
}

/// `evicted`: an entry left the store (or one tier of it).
public struct Evicted: Sendable, Hashable, Codable {
    /// Which entry.
    public var entry: EntryRef
    /// Why.
    public var reason: EvictionReason
    /// The tier it left (`both` when it is gone entirely).
    public var tier: EntryTier
    /// Its size in bytes.
    public var size: Int

    /// Creates the payload.
    public init(entry: EntryRef, reason: EvictionReason, tier: EntryTier, size: Int) {
        self.entry = entry
        self.reason = reason
        self.tier = tier
        self.size = size
    }
}

/// `purged`: a purge finished.
public struct Purged: Sendable, Hashable, Codable {
    /// What it covered: the store's own ``PurgeScope``.
    public var scope: PurgeScope
    /// How many entries it removed.
    public var count: Int
    /// The instance whose purge this was, when it came from another instance through the
    /// shared tier (its `--shared-tier` instance name, `host:pid`); `nil` for a purge of this
    /// process's own.
    public var origin: String?

    /// Creates the payload.
    public init(scope: PurgeScope, count: Int, origin: String? = nil) {
        self.scope = scope
        self.count = count
        self.origin = origin
    }

    /// The primary key (`GET https://…`) of a `key` or `entry` purge.
    public var key: String? { scope.key?.description }

    private enum CodingKeys: String, CodingKey { case scope, key, variant, since, match, origin }

    /// Reads `scope` (`key`, `entry`, `all`, `expired`, `since`, `tag`, `prefix`, `filter`)
    /// with its `key`, `variant`, `since` (seconds since 1970) or `match` (the tag, prefix
    /// or filter text); an unknown or incomplete scope reads as `all`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let word = try container.decodeIfPresent(String.self, forKey: .scope) ?? "all"
        let key = try container.decodeIfPresent(String.self, forKey: .key)
        let variant = try container.decodeIfPresent(String.self, forKey: .variant)
        let since = try container.decodeIfPresent(Double.self, forKey: .since)
        let match = try container.decodeIfPresent(String.self, forKey: .match)
        scope = PurgeScope(word: word, key: key, variant: variant, since: since, match: match)
        origin = try container.decodeIfPresent(String.self, forKey: .origin)
        count = try decoder.container(keyedBy: CountKey.self).decode(Int.self, forKey: .count)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scope.word, forKey: .scope)
        try container.encodeIfPresent(key, forKey: .key)
        if case .entry(let id) = scope { try container.encode(id.varySignature, forKey: .variant) }
        if case .since(let date) = scope { try container.encode(date.timeIntervalSince1970, forKey: .since) }
        try container.encodeIfPresent(scope.match, forKey: .match)
        try container.encodeIfPresent(origin, forKey: .origin)
        var counted = encoder.container(keyedBy: CountKey.self)
        try counted.encode(count, forKey: .count)
    }

    private enum CountKey: String, CodingKey { case count }
}

extension PurgeScope {
    /// The scope a log names: its word, and the key, variant, date or match (tag, prefix,
    /// filter text) that goes with it. An unknown word, or a scope without the value it
    /// needs, reads as `all`.
    public init(word: String, key: String?, variant: String?, since: Double?, match: String? = nil) {
        let cacheKey = key.flatMap(CacheKey.init(parsing:))
        switch word {
        case "key": self = cacheKey.map { .key($0) } ?? .all
        case "entry": self = cacheKey.map { .entry(EntryID(key: $0, varySignature: variant ?? "")) } ?? .all
        case "expired": self = .expired
        case "since": self = .since(Date(timeIntervalSince1970: since ?? 0))
        case "tag": self = match.map { .tag($0) } ?? .all
        case "prefix": self = match.map { .prefix($0) } ?? .all
        case "filter": self = match.map { .filter($0) } ?? .all
        default: self = .all
        }
    }
}

/// One entry in an ``EntriesSnapshot``.
public struct EntryInfo: Sendable, Hashable, Codable {
    /// Which entry.
    public var entry: EntryRef
    /// Where it lives.
    public var tier: EntryTier
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
    /// Its tags (surrogate keys), `nil` when it has none.
    public var tags: [String]?

    /// Creates an entry description.
    public init(
        entry: EntryRef, tier: EntryTier, size: Int, ttl: Double?, age: Double, etag: String?,
        lastModified: String?, hits: Int, idle: Double, status: Int, tags: [String]? = nil
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
        self.tags = tags
    }
}

/// `entries`: every stored entry at one moment.
public struct EntriesSnapshot: Sendable, Hashable, Codable {
    /// The entries.
    public var entries: [EntryInfo]

    /// Creates a snapshot.
    public init(entries: [EntryInfo]) { self.entries = entries }
}
