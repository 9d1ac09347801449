public import Foundation
public import HTTPCaching

/// Receives every change of a ``ResponseStore``; the caching client forwards them as events.
///
/// It is called synchronously, outside the store's locks, on the thread that made the change
/// (the caller's for stores, lookups and purges; the disk executor for changes found while
/// writing or reading files). It must be cheap and must not block — yield into an
/// `AsyncStream` or append to a buffer.
public typealias StoreObserver = @Sendable (StoreChange) -> Void

/// One change of a ``ResponseStore``.
public enum StoreChange: Sendable, Hashable {
    /// An entry was stored in `summary.tier` (memory, disk or both).
    case stored(EntrySummary)
    /// A disk hit was copied into memory.
    case promoted(EntryID)
    /// An entry lost its copy in one tier or both.
    case evicted(Eviction)
    /// A purge request was carried out.
    case purged(PurgeScope)
    /// A namespace's disk failed (full, read-only, I/O error); the namespace now keeps entries
    /// in memory only. The message names the path and the cause.
    case diskFailure(String)
    /// A namespace's index could not be read and was rebuilt empty; the message says why.
    case indexReset(String)
}

/// One entry leaving a tier: which, why, from where, and what is left.
public struct Eviction: Sendable, Hashable {
    /// The entry.
    public let id: EntryID
    /// Why it was removed.
    public let reason: EvictionReason
    /// The copies removed (`.both`: memory and disk).
    public let removedFrom: EntryTier
    /// The copy that remains, or `nil` when the entry left the store.
    public let remaining: EntryTier?
    /// Its size in bytes.
    public let size: Int

    /// An eviction from its parts.
    public init(id: EntryID, reason: EvictionReason, removedFrom: EntryTier, remaining: EntryTier?, size: Int) {
        self.id = id
        self.reason = reason
        self.removedFrom = removedFrom
        self.remaining = remaining
        self.size = size
    }
}

/// Why an entry left a tier.
public enum EvictionReason: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The tier was over its capacity; least recently used entries go first.
    case capacity
    /// Its retention ended (`expiresAt` passed).
    case expired
    /// Removed on request (a purge). Its word in events and logs is `purge`.
    case purged = "purge"
    /// Its file was truncated, corrupted, tampered with or missing; it was not served.
    case corrupt
    /// An unsafe request (POST, PUT, DELETE, …) to its URI, or one naming it in `Location` or
    /// `Content-Location`, succeeded: what was stored may no longer be what the origin holds
    /// (RFC 9111 §4.4). Not a purge: nobody asked for it to go.
    case invalidated

    public var description: String { rawValue }
}

/// What a purge removed.
public enum PurgeScope: Sendable, Hashable, CustomStringConvertible {
    /// Every variant of a primary key.
    case key(CacheKey)
    /// One variant.
    case entry(EntryID)
    /// Everything.
    case all
    /// Every entry whose retention ended.
    case expired
    /// Every entry stored at or after a date.
    case since(Date)
    /// Every entry tagged with a tag (``SurrogateKeys``).
    case tag(String)
    /// Every entry whose URL starts with a prefix.
    case prefix(String)
    /// Every entry a filter expression (the TrafficFilter language) matched.
    case filter(String)

    /// The scope's word in events and logs: `key`, `entry`, `all`, `expired`, `since`, `tag`,
    /// `prefix` or `filter`.
    public var word: String {
        switch self {
        case .key: return "key"
        case .entry: return "entry"
        case .all: return "all"
        case .expired: return "expired"
        case .since: return "since"
        case .tag: return "tag"
        case .prefix: return "prefix"
        case .filter: return "filter"
        }
    }

    /// The primary key a `key` or `entry` purge covered.
    public var key: CacheKey? {
        switch self {
        case .key(let key): return key
        case .entry(let id): return id.key
        case .all, .expired, .since, .tag, .prefix, .filter: return nil
        }
    }

    /// The tag, URL prefix or filter text a `tag`, `prefix` or `filter` purge covered.
    public var match: String? {
        switch self {
        case .tag(let text), .prefix(let text), .filter(let text): return text
        case .key, .entry, .all, .expired, .since: return nil
        }
    }

    public var description: String {
        switch self {
        case .key(let key): return "key \(key)"
        case .entry(let id): return "entry \(id)"
        case .all: return "all"
        case .expired: return "expired"
        case .since(let date): return "since \(date)"
        case .tag(let tag): return "tag \(tag)"
        case .prefix(let prefix): return "prefix \(prefix)"
        case .filter(let filter): return "filter \(filter)"
        }
    }
}
