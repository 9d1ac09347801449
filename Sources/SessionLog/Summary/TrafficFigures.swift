public import CacheEvents
import CacheStore
import HTTPCaching

/// The figures of ``TrafficCounters`` that CacheScope's JSON reports share — a session's
/// summary (``SessionSummaryReport``) and each `--stats-every` line (the dashboard's
/// `IntervalStats`): requests by outcome, hit ratios, bytes, evictions. A report writes them at
/// its own top level, beside its own fields, under the same names in both (the counters'
/// definitions are the dashboard header's).
public struct TrafficFigures: Sendable, Hashable, Codable {
    /// Requests by outcome word.
    public struct Outcomes: Sendable, Hashable, Codable {
        /// Served fresh from the cache.
        public var hit = 0
        /// Served stale from the cache.
        public var stale = 0
        /// Served from the cache after a 304.
        public var revalidated = 0
        /// A conditional request got a new response.
        public var modified = 0
        /// Fetched from the origin: nothing usable was stored.
        public var miss = 0
        /// The cache was not consulted.
        public var bypass = 0
        /// No response could be produced.
        public var error = 0

        /// The counts of `counters`.
        public init(_ counters: TrafficCounters) {
            hit = counters.count(.hit)
            stale = counters.count(.stale)
            revalidated = counters.count(.revalidated)
            modified = counters.count(.modified)
            miss = counters.count(.miss)
            bypass = counters.count(.bypass)
            error = counters.count(.error)
        }
    }

    /// Evictions by reason.
    public struct Evictions: Sendable, Hashable, Codable {
        /// Room was needed.
        public var capacity = 0
        /// Retention ended.
        public var expired = 0
        /// Purged on request.
        public var purge = 0
        /// Failed an integrity check.
        public var corrupt = 0
        /// An unsafe request to its URI succeeded.
        public var invalidated = 0

        /// The evictions of `counters`.
        public init(_ counters: TrafficCounters) {
            capacity = counters.evictions[.capacity] ?? 0
            expired = counters.evictions[.expired] ?? 0
            purge = counters.evictions[.purged] ?? 0
            corrupt = counters.evictions[.corrupt] ?? 0
            invalidated = counters.evictions[.invalidated] ?? 0
        }
    }

    /// Finished requests (the cache's own background refreshes are not counted).
    public var requests: Int
    /// Finished requests by outcome.
    public var outcomes: Outcomes
    /// Requests that shared another's origin fetch.
    public var coalesced: Int
    /// The cache's own background refreshes (stale-while-revalidate): not in `requests` or
    /// `outcomes`; their network bytes are in `bytesFromNetwork`.
    public var backgroundRefreshes: Int
    /// (hit + stale + revalidated) ÷ every outcome but bypass; `null` without such requests.
    @ExplicitNull public var hitRatio: Double?
    /// Bytes from the cache ÷ (from the cache + from the network); `null` before any byte.
    @ExplicitNull public var byteHitRatio: Double?
    /// Body bytes served from the cache.
    public var bytesFromCache: Int
    /// Body bytes received from the origin.
    public var bytesFromNetwork: Int
    /// Body bytes that did not cross the network (= `bytesFromCache`).
    public var bytesSaved: Int
    /// Evictions by reason.
    public var evictions: Evictions
    /// Events lost by slow watchers (`dropped` events).
    public var droppedEvents: Int

    /// The figures of `counters`.
    public init(_ counters: TrafficCounters) {
        requests = counters.requests
        outcomes = Outcomes(counters)
        coalesced = counters.coalesced
        backgroundRefreshes = counters.backgroundRefreshes
        hitRatio = counters.hitRatio
        byteHitRatio = counters.byteHitRatio
        bytesFromCache = counters.bytesFromCache
        bytesFromNetwork = counters.bytesFromNetwork
        bytesSaved = counters.bytesSaved
        evictions = Evictions(counters)
        droppedEvents = counters.droppedEvents
    }
}
