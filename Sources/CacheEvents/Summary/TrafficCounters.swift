public import CacheStore
public import HTTPCaching

/// Running totals of a session's traffic, folded from ``CacheEvent``s: what the dashboard's
/// header shows and what `--summary` prints. One definition for both, so a replayed log's
/// summary equals the one its recording run printed.
///
/// - **Request hit ratio** = (hit + stale + revalidated) ÷ (hit + stale + revalidated +
///   modified + miss + error). `bypass` requests are left out: the cache was not allowed to
///   answer them. Coalesced requests count with the outcome they received.
/// - **Byte hit ratio** = bytes served from the cache ÷ (bytes from the cache + body bytes
///   from the network).
/// - **Bytes saved** = body bytes served from the cache (they did not cross the network).
/// - A **background refresh** (stale-while-revalidate) is not a request of the app: it is
///   counted in ``backgroundRefreshes``, not in ``requests`` or the outcomes, and only its
///   network bytes count.
public struct TrafficCounters: Sendable, Hashable, Codable {
    /// Finished requests.
    public var requests = 0
    /// Finished requests by outcome.
    public var outcomes: [CacheOutcome: Int] = [:]
    /// Requests that shared another request's origin fetch.
    public var coalesced = 0
    /// Background refreshes the cache made on its own (stale-while-revalidate).
    public var backgroundRefreshes = 0
    /// Body bytes served from the cache.
    public var bytesFromCache = 0
    /// Body bytes received from the origin.
    public var bytesFromNetwork = 0
    /// Entries evicted, by reason.
    public var evictions: [EvictionReason: Int] = [:]
    /// Events that slow watchers lost (as reported by `dropped` events).
    public var droppedEvents = 0

    /// Empty counters.
    public init() {}

    /// Adds one event's contribution.
    public mutating func apply(_ event: CacheEvent) {
        switch event.kind {
        case .requestFinished(let finished) where finished.background:
            backgroundRefreshes += 1
            bytesFromNetwork.addSaturating(finished.bytesFromNetwork)
        case .requestFinished(let finished):
            requests += 1
            outcomes[finished.outcome, default: 0] += 1
            if finished.coalesced { coalesced += 1 }
            // Saturating: each figure is bounded when it is read (CacheEvent.possibleAmounts),
            // but a long enough log of large ones could still add up past Int.max.
            bytesFromCache.addSaturating(finished.bytesFromCache)
            bytesFromNetwork.addSaturating(finished.bytesFromNetwork)
        case .evicted(let evicted):
            evictions[evicted.reason, default: 0] += 1
        case .purged(let purged) where purged.scope == .all:
            // The store reports a purge of everything as one change, not entry by entry (the
            // metrics count it the same way).
            evictions[.purged, default: 0].addSaturating(purged.count)
        case .dropped(let dropped):
            droppedEvents.addSaturating(dropped.count)
        default:
            break
        }
    }

    /// The count for one outcome.
    public func count(_ outcome: CacheOutcome) -> Int { outcomes[outcome] ?? 0 }

    /// Requests answered from the cache: hit + stale + revalidated.
    public var servedFromCache: Int { count(.hit) + count(.stale) + count(.revalidated) }

    /// Requests the hit ratio is taken over: every outcome but bypass.
    public var cacheableRequests: Int { requests - count(.bypass) }

    /// The request hit ratio (0…1), or `nil` before any cacheable request.
    public var hitRatio: Double? {
        cacheableRequests > 0 ? Double(servedFromCache) / Double(cacheableRequests) : nil
    }

    /// Body bytes served from the cache and from the network together (saturating, as the
    /// counts themselves).
    public var bytesServed: Int { bytesFromCache.addingSaturating(bytesFromNetwork) }

    /// Entries evicted, for every reason (saturating).
    public var totalEvictions: Int { evictions.values.reduce(0) { $0.addingSaturating($1) } }

    /// The byte hit ratio (0…1), or `nil` before any byte was served.
    public var byteHitRatio: Double? {
        bytesServed > 0 ? Double(bytesFromCache) / (Double(bytesFromCache) + Double(bytesFromNetwork)) : nil
    }

    /// Body bytes that did not cross the network thanks to the cache.
    public var bytesSaved: Int { bytesFromCache }
}
