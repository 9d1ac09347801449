public import CacheStore
public import CacheEvents
import SessionLog

/// One stored response as the Entries view shows it. Times are session seconds, so the TTL
/// and age can be computed for any "now" — the countdown moves without new events.
public struct EntryRecord: Sendable, Hashable {
    /// Which entry: primary key and Vary variant.
    public var ref: EntryRef
    /// Where it lives.
    public var tier: EntryTier
    /// Its size in bytes.
    public var size: Int
    /// The stored status code.
    public var status: Int
    /// ETag, if any (untrusted text).
    public var etag: String?
    /// Last-Modified, if any (untrusted text).
    public var lastModified: String?
    /// Times served from the cache.
    public var hits: Int
    /// When it was stored, freshened or last described by a snapshot.
    public var since: Double
    /// Its age at ``since``.
    public var ageAtSince: Double
    /// When its freshness runs out (`nil` when unknown).
    public var expiresAt: Double?
    /// The freshness it had at ``since`` (the TTL bar's full length), when known.
    public var lifetime: Double?
    /// When it was last served from the cache, if known.
    public var lastAccess: Double?
    /// Its tags (surrogate keys), as its `stored` event or the last snapshot named them.
    public var tags: [String]
    /// The attached instance whose store holds it (0 with one instance).
    public var instance: UInt16 = 0
    /// That instance's name; empty while the dashboard watches one.
    public var instanceName = ""

    /// Which row it is: the same key stored by two instances is two rows.
    public var id: EntryRowID { EntryRowID(ref: ref, instance: instance) }

    /// Creates a record.
    public init(
        ref: EntryRef, tier: EntryTier, size: Int, status: Int, etag: String?, lastModified: String?, hits: Int,
        since: Double, ageAtSince: Double, expiresAt: Double?, lifetime: Double?, lastAccess: Double?, tags: [String] = []
    ) {
        self.ref = ref
        self.tier = tier
        self.size = size
        self.status = status
        self.etag = etag
        self.lastModified = lastModified
        self.hits = hits
        self.since = since
        self.ageAtSince = ageAtSince
        self.expiresAt = expiresAt
        self.lifetime = lifetime
        self.lastAccess = lastAccess
        self.tags = tags
    }

    /// Seconds of freshness left at `now` (negative once stale; `nil` when unknown).
    public func ttl(at now: Double) -> Double? { expiresAt.map { $0 - now } }

    /// Its age at `now`.
    public func age(at now: Double) -> Double { ageAtSince + max(0, now - since) }

    /// Fresh, expiring soon or stale at `now` (see ``TTLState``).
    public func ttlState(at now: Double) -> TTLState? {
        ttl(at: now).map { TTLState(remaining: $0, lifetime: lifetime) }
    }
}

/// An entry's identity in the Entries view: its key and variant, and the instance whose store
/// holds it (a fleet's instances may store the same key).
public struct EntryRowID: Sendable, Hashable {
    /// Primary key and variant.
    public var ref: EntryRef
    /// The attached instance (0 with one instance).
    public var instance: UInt16

    /// The entry `ref` of `instance`.
    public init(ref: EntryRef, instance: UInt16 = 0) {
        self.ref = ref
        self.instance = instance
    }
}

/// How much freshness an entry has left, as the TTL column colours it (roles `ttl-fresh`,
/// `ttl-expiring`, `ttl-expired`).
///
/// - **expired**: no freshness left (TTL ≤ 0): the next request revalidates or serves stale.
/// - **expiring**: at most 10 seconds, or at most a fifth of its lifetime, left.
/// - **fresh**: more than that.
public enum TTLState: Sendable, Hashable {
    /// More than 10 s and more than a fifth of its lifetime left.
    case fresh
    /// At most 10 s or a fifth of its lifetime left.
    case expiring
    /// No freshness left.
    case expired

    /// Seconds of freshness below which an entry is always "expiring": 10.
    public static let soonSeconds = 10.0
    /// The share of its lifetime below which an entry is "expiring": 0.2.
    public static let soonShare = 0.2

    /// Classifies `remaining` seconds of a `lifetime` (the TTL when stored).
    public init(remaining: Double, lifetime: Double?) {
        if remaining <= 0 {
            self = .expired
        } else if remaining <= Self.soonSeconds || (lifetime.map { remaining <= $0 * Self.soonShare } ?? false) {
            self = .expiring
        } else {
            self = .fresh
        }
    }
}
