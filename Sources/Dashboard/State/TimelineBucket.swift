public import CacheStore
import HTTPCaching

/// What happened in one stretch of session time: the finished requests, how many of them the
/// hit ratio counts and how many the cache answered, and the evictions by cause.
public struct TimelineBucket: Sendable, Hashable {
    /// Finished requests (not the cache's background refreshes).
    public var requests = 0
    /// Finished requests the hit ratio counts (every outcome but bypass).
    public var cacheable = 0
    /// Finished requests answered from the cache (hit, stale, revalidated).
    public var fromCache = 0
    /// Evictions for lack of room.
    public var capacityEvictions = 0
    /// Evictions because the retention passed.
    public var expiredEvictions = 0
    /// Evictions by a purge.
    public var purgedEvictions = 0
    /// Evictions of entries that failed an integrity check.
    public var corruptEvictions = 0
    /// Entries an unsafe request invalidated.
    public var invalidatedEvictions = 0

    /// An empty stretch.
    public init() {}

    /// The request hit ratio of the stretch (0…1), `nil` without a cacheable request: the same
    /// definition as ``TrafficCounters/hitRatio``.
    public var hitRatio: Double? { cacheable > 0 ? Double(fromCache) / Double(cacheable) : nil }

    /// Evictions for `reason`.
    public func evictions(_ reason: EvictionReason) -> Int {
        switch reason {
        case .capacity: capacityEvictions
        case .expired: expiredEvictions
        case .purged: purgedEvictions
        case .corrupt: corruptEvictions
        case .invalidated: invalidatedEvictions
        }
    }

    mutating func addRequest(_ outcome: CacheOutcome) {
        requests += 1
        guard outcome != .bypass else { return }
        cacheable += 1
        if outcome.servedFromCache { fromCache += 1 }
    }

    mutating func addEviction(_ reason: EvictionReason, count: Int = 1) {
        switch reason {
        case .capacity: capacityEvictions += count
        case .expired: expiredEvictions += count
        case .purged: purgedEvictions += count
        case .corrupt: corruptEvictions += count
        case .invalidated: invalidatedEvictions += count
        }
    }

    /// Both stretches together.
    static func + (lhs: TimelineBucket, rhs: TimelineBucket) -> TimelineBucket {
        var sum = lhs
        sum.requests += rhs.requests
        sum.cacheable += rhs.cacheable
        sum.fromCache += rhs.fromCache
        sum.capacityEvictions += rhs.capacityEvictions
        sum.expiredEvictions += rhs.expiredEvictions
        sum.purgedEvictions += rhs.purgedEvictions
        sum.corruptEvictions += rhs.corruptEvictions
        sum.invalidatedEvictions += rhs.invalidatedEvictions
        return sum
    }
}
