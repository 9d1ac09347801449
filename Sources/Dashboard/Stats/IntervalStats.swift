import Foundation
public import SessionLog
import CacheEvents
public import CacheStore
import HTTPCaching

/// One line of `--stats-every SECONDS --json`: the header's figures at the end of an interval
/// of session time, for `jq` and scripts. Field names are stable and documented in
/// `docs/cli.md`; a change to them raises ``version``.
///
/// Counts, bytes and ratios are the session's so far (``TrafficCounters``, as the header);
/// `requestsPerSecond` and `evictionsPerSecond` are the header's rates over the last 10 s;
/// `intervalRequests` are the requests that finished within this interval; latencies are in
/// seconds.
///
/// ```json
/// {"format":"cachescope-stats","version":1,"time":10,"interval":5,"final":false,"events":212,
///  "requests":40,"intervalRequests":19,"outcomes":{"hit":21,…},"coalesced":1,"backgroundRefreshes":0,"inFlight":2,
///  "requestsPerSecond":3.9,"hitRatio":0.61,"byteHitRatio":0.48,"bytesFromCache":40960,"bytesFromNetwork":44100,
///  "bytesSaved":40960,"evictions":{"capacity":0,…},"evictionsPerSecond":{"capacity":0,…},
///  "store":{"memoryUsed":6291456,"memoryCapacity":16777216,"diskUsed":13631488,"diskCapacity":268435456,"entries":5},
///  "latency":{"all":{"count":40,"p50":0.0094,"p95":0.19,"p99":0.2,"max":0.2},"hit":{…},…},"droppedEvents":0}
/// ```
public struct IntervalStats: Sendable, Hashable, Codable {
    /// Evictions per second by reason, over the last 10 s (the header's `evictions/s`).
    public struct EvictionRates: Sendable, Hashable, Codable {
        /// Room was needed.
        public var capacity: Double
        /// Retention ended.
        public var expired: Double
        /// Purged on request.
        public var purge: Double
        /// Failed an integrity check.
        public var corrupt: Double
    }

    /// Latency figures of one outcome (or of all requests), in seconds; `null` without requests.
    public struct Latency: Sendable, Hashable, Codable {
        /// Requests measured.
        public var count: Int
        /// Half took less (within 6 %).
        public var p50: Double?
        /// 95 % took less.
        public var p95: Double?
        /// 99 % took less.
        public var p99: Double?
        /// The slowest.
        public var max: Double?

        init(_ histogram: LatencyHistogram) {
            count = histogram.count
            p50 = histogram.percentile(0.5)
            p95 = histogram.percentile(0.95)
            p99 = histogram.percentile(0.99)
            max = histogram.maximum
        }

        /// Encodes every field, `null` for an undefined one rather than leaving it out.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(count, forKey: .count)
            try container.encode(p50, forKey: .p50)
            try container.encode(p95, forKey: .p95)
            try container.encode(p99, forKey: .p99)
            try container.encode(max, forKey: .max)
        }
    }

    /// Always `cachescope-stats`.
    public var format = "cachescope-stats"
    /// The line's version: 1.
    public var version = 1
    /// Session seconds at the end of the interval.
    public var time: Double
    /// The interval's length in seconds (`--stats-every`).
    public var interval: Double
    /// Whether this is the last line, written when the command ends (its interval may be shorter).
    public var final: Bool
    /// Events folded so far.
    public var events: Int
    /// Finished requests so far.
    public var requests: Int
    /// Requests that finished within this interval.
    public var intervalRequests: Int
    /// Finished requests by outcome so far.
    public var outcomes: SessionSummaryReport.Outcomes
    /// Requests that shared another's origin fetch.
    public var coalesced: Int
    /// The cache's own stale-while-revalidate refreshes (not in `requests`).
    public var backgroundRefreshes: Int
    /// Requests started and not yet finished.
    public var inFlight: Int
    /// Finished requests per second over the last 10 s of session time (the header's `req/s`).
    public var requestsPerSecond: Double
    /// The request hit ratio (0…1); `null` without a cacheable request.
    public var hitRatio: Double?
    /// The byte hit ratio (0…1); `null` before any byte.
    public var byteHitRatio: Double?
    /// Body bytes served from the cache.
    public var bytesFromCache: Int
    /// Body bytes received from the origin.
    public var bytesFromNetwork: Int
    /// Body bytes that did not cross the network.
    public var bytesSaved: Int
    /// Evictions by reason so far.
    public var evictions: SessionSummaryReport.Evictions
    /// Evictions per second by reason over the last 10 s.
    public var evictionsPerSecond: EvictionRates
    /// The store's gauges as last reported (`memoryUsed`, `memoryCapacity`, `diskUsed`,
    /// `diskCapacity`, `entries`: the session log's `storeStats` form); `null` before.
    public var store: StoreStats?
    /// Latency of all requests (`all`) and of each outcome (`hit`, …, `error`).
    public var latency: [String: Latency]
    /// Events this watcher lost.
    public var droppedEvents: Int
    /// With several instances attached (`attach S1 S2 … --no-ui`): each one's own figures, in
    /// instance order; absent (not `null`) with one, so a single instance's lines are as before.
    public var instances: [Instance]?

    /// One instance's figures in a line of a fleet.
    public struct Instance: Sendable, Hashable, Codable {
        /// Its index (the order of the sockets on the command line, from 0).
        public var instance: Int
        /// Its name (the process name, made unique), when known.
        public var name: String?
        /// Its finished requests so far.
        public var requests: Int
        /// Its request hit ratio, `null` before a cacheable request.
        public var hitRatio: Double?
        /// Its byte hit ratio.
        public var byteHitRatio: Double?
        /// Its bytes served from the cache.
        public var bytesFromCache: Int
        /// Its bytes from the network.
        public var bytesFromNetwork: Int
        /// Its store's gauges as last reported.
        public var store: StoreStats?

        /// Encodes every field (`null` for undefined ratios and a missing store), the name
        /// only when known.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(instance, forKey: .instance)
            try container.encodeIfPresent(name, forKey: .name)
            try container.encode(requests, forKey: .requests)
            try container.encode(hitRatio, forKey: .hitRatio)
            try container.encode(byteHitRatio, forKey: .byteHitRatio)
            try container.encode(bytesFromCache, forKey: .bytesFromCache)
            try container.encode(bytesFromNetwork, forKey: .bytesFromNetwork)
            try container.encode(store, forKey: .store)
        }
    }

    /// The figures of `model` at session time `time`.
    init(_ model: TrafficModel, time: Double, interval: Double, intervalRequests: Int, final: Bool) {
        let counters = model.counters
        self.time = time
        self.interval = interval
        self.final = final
        self.intervalRequests = intervalRequests
        events = model.eventsApplied
        requests = counters.requests
        outcomes = .init(counters)
        coalesced = counters.coalesced
        backgroundRefreshes = counters.backgroundRefreshes
        inFlight = model.requests.openCount
        requestsPerSecond = model.requestRate(at: time)
        hitRatio = counters.hitRatio
        byteHitRatio = counters.byteHitRatio
        bytesFromCache = counters.bytesFromCache
        bytesFromNetwork = counters.bytesFromNetwork
        bytesSaved = counters.bytesSaved
        evictions = .init(counters)
        evictionsPerSecond = EvictionRates(
            capacity: model.evictionRate(.capacity, at: time), expired: model.evictionRate(.expired, at: time),
            purge: model.evictionRate(.purged, at: time), corrupt: model.evictionRate(.corrupt, at: time))
        store = model.store
        var latency = ["all": Latency(model.latency)]
        for outcome in CacheOutcome.allCases { latency[outcome.rawValue] = Latency(model.latencyByOutcome[outcome]) }
        self.latency = latency
        droppedEvents = counters.droppedEvents
        if !model.perInstance.isEmpty {
            instances = model.perInstance.enumerated().map { index, figures in
                Instance(
                    instance: index, name: index < model.instanceNames.count ? model.instanceNames[index] : nil,
                    requests: figures.counters.requests, hitRatio: figures.counters.hitRatio,
                    byteHitRatio: figures.counters.byteHitRatio, bytesFromCache: figures.counters.bytesFromCache,
                    bytesFromNetwork: figures.counters.bytesFromNetwork, store: figures.store)
            }
        }
    }

    private enum CodingKeys: String, CodingKey {
        case format, version, time, interval, final, events, requests, intervalRequests, outcomes, coalesced
        case backgroundRefreshes, inFlight, requestsPerSecond, hitRatio, byteHitRatio, bytesFromCache, bytesFromNetwork
        case bytesSaved, evictions, evictionsPerSecond, store, latency, droppedEvents, instances
    }

    /// Encodes every field, `null` for undefined ratios and a missing store rather than leaving
    /// them out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encode(version, forKey: .version)
        try container.encode(time, forKey: .time)
        try container.encode(interval, forKey: .interval)
        try container.encode(final, forKey: .final)
        try container.encode(events, forKey: .events)
        try container.encode(requests, forKey: .requests)
        try container.encode(intervalRequests, forKey: .intervalRequests)
        try container.encode(outcomes, forKey: .outcomes)
        try container.encode(coalesced, forKey: .coalesced)
        try container.encode(backgroundRefreshes, forKey: .backgroundRefreshes)
        try container.encode(inFlight, forKey: .inFlight)
        try container.encode(requestsPerSecond, forKey: .requestsPerSecond)
        try container.encode(hitRatio, forKey: .hitRatio)
        try container.encode(byteHitRatio, forKey: .byteHitRatio)
        try container.encode(bytesFromCache, forKey: .bytesFromCache)
        try container.encode(bytesFromNetwork, forKey: .bytesFromNetwork)
        try container.encode(bytesSaved, forKey: .bytesSaved)
        try container.encode(evictions, forKey: .evictions)
        try container.encode(evictionsPerSecond, forKey: .evictionsPerSecond)
        try container.encode(store, forKey: .store)
        try container.encode(latency, forKey: .latency)
        try container.encode(droppedEvents, forKey: .droppedEvents)
        try container.encodeIfPresent(instances, forKey: .instances)
    }

    /// The line as compact JSON with sorted keys, ending in a newline.
    public func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }
}
