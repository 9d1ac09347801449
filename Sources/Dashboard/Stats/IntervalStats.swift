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
/// The line's own fields (``Fields``) and the counters' figures it shares with the session
/// summary (``TrafficFigures``) are written side by side in one object; each is read as a
/// property of the line (`line.time`, `line.hitRatio`).
///
/// ```json
/// {"format":"cachescope-stats","version":1,"time":10,"interval":5,"final":false,"events":212,
///  "requests":40,"intervalRequests":19,"outcomes":{"hit":21,…},"coalesced":1,"backgroundRefreshes":0,"inFlight":2,
///  "requestsPerSecond":3.9,"hitRatio":0.61,"byteHitRatio":0.48,"bytesFromCache":40960,"bytesFromNetwork":44100,
///  "bytesSaved":40960,"evictions":{"capacity":0,…},"evictionsPerSecond":{"capacity":0,…},
///  "store":{"memoryUsed":6291456,"memoryCapacity":16777216,"diskUsed":13631488,"diskCapacity":268435456,"entries":5},
///  "latency":{"all":{"count":40,"p50":0.0094,"p95":0.19,"p99":0.2,"max":0.2},"hit":{…},…},"droppedEvents":0}
/// ```
@dynamicMemberLookup
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
        /// An unsafe request to its URI succeeded.
        public var invalidated: Double
    }

    /// Latency figures of one outcome (or of all requests), in seconds; `null` without requests.
    public struct Latency: Sendable, Hashable, Codable {
        /// Requests measured.
        public var count: Int
        /// Half took less (within 6 %).
        @ExplicitNull public var p50: Double?
        /// 95 % took less.
        @ExplicitNull public var p95: Double?
        /// 99 % took less.
        @ExplicitNull public var p99: Double?
        /// The slowest.
        @ExplicitNull public var max: Double?

        init(_ histogram: LatencyHistogram) {
            count = histogram.count
            p50 = histogram.percentile(0.5)
            p95 = histogram.percentile(0.95)
            p99 = histogram.percentile(0.99)
            max = histogram.maximum
        }
    }

    /// The line's own fields, beside the ``TrafficFigures``.
    public struct Fields: Sendable, Hashable, Codable {
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
        /// Requests that finished within this interval.
        public var intervalRequests: Int
        /// Requests started and not yet finished.
        public var inFlight: Int
        /// Finished requests per second over the last 10 s of session time (the header's `req/s`).
        public var requestsPerSecond: Double
        /// Evictions per second by reason over the last 10 s.
        public var evictionsPerSecond: EvictionRates
        /// The store's gauges as last reported (`memoryUsed`, `memoryCapacity`, `diskUsed`,
        /// `diskCapacity`, `entries`: the session log's `storeStats` form); `null` before.
        @ExplicitNull public var store: StoreStats?
        /// Latency of all requests (`all`) and of each outcome (`hit`, …, `error`).
        public var latency: [String: Latency]
        /// With several instances attached (`attach S1 S2 … --no-ui`): each one's own figures, in
        /// instance order; absent (not `null`) with one, so a single instance's lines are as before.
        public var instances: [Instance]?
    }

    /// One instance's figures in a line of a fleet.
    public struct Instance: Sendable, Hashable, Codable {
        /// Its index (the order of the sockets on the command line, from 0).
        public var instance: Int
        /// Its name (the process name, made unique), when known; absent when not.
        public var name: String?
        /// Its finished requests so far.
        public var requests: Int
        /// Its request hit ratio, `null` before a cacheable request.
        @ExplicitNull public var hitRatio: Double?
        /// Its byte hit ratio, `null` before any byte.
        @ExplicitNull public var byteHitRatio: Double?
        /// Its bytes served from the cache.
        public var bytesFromCache: Int
        /// Its bytes from the network.
        public var bytesFromNetwork: Int
        /// Its store's gauges as last reported, `null` before.
        @ExplicitNull public var store: StoreStats?
    }

    /// The line's own fields.
    public var fields: Fields
    /// The counters' figures so far, as in the session summary (`requests`, `outcomes`,
    /// `hitRatio`, …, `droppedEvents`: events this watcher lost).
    public var traffic: TrafficFigures

    /// One of the line's own fields.
    public subscript<Value>(dynamicMember keyPath: KeyPath<Fields, Value>) -> Value { fields[keyPath: keyPath] }
    /// One of the counters' figures.
    public subscript<Value>(dynamicMember keyPath: KeyPath<TrafficFigures, Value>) -> Value { traffic[keyPath: keyPath] }

    /// The figures of `model` at session time `time`.
    init(_ model: TrafficModel, time: Double, interval: Double, intervalRequests: Int, final: Bool) {
        var latency = ["all": Latency(model.latency)]
        for outcome in CacheOutcome.allCases { latency[outcome.rawValue] = Latency(model.latencyByOutcome[outcome]) }
        fields = Fields(
            time: time, interval: interval, final: final, events: model.eventsApplied, intervalRequests: intervalRequests,
            inFlight: model.requests.openCount, requestsPerSecond: model.requestRate(at: time),
            evictionsPerSecond: EvictionRates(
                capacity: model.evictionRate(.capacity, at: time), expired: model.evictionRate(.expired, at: time),
                purge: model.evictionRate(.purged, at: time), corrupt: model.evictionRate(.corrupt, at: time),
                invalidated: model.evictionRate(.invalidated, at: time)),
            store: model.store, latency: latency, instances: Self.instances(of: model))
        traffic = TrafficFigures(model.counters)
    }

    /// Each instance's figures when several are attached, else `nil`.
    private static func instances(of model: TrafficModel) -> [Instance]? {
        guard !model.perInstance.isEmpty else { return nil }
        return model.perInstance.enumerated().map { index, figures in
            Instance(
                instance: index, name: index < model.instanceNames.count ? model.instanceNames[index] : nil,
                requests: figures.counters.requests, hitRatio: figures.counters.hitRatio,
                byteHitRatio: figures.counters.byteHitRatio, bytesFromCache: figures.counters.bytesFromCache,
                bytesFromNetwork: figures.counters.bytesFromNetwork, store: figures.store)
        }
    }

    /// Reads both parts from the one object.
    public init(from decoder: any Decoder) throws {
        fields = try Fields(from: decoder)
        traffic = try TrafficFigures(from: decoder)
    }

    /// Writes both parts into one object (``ExplicitNull`` writes `null` for undefined figures
    /// and a missing store rather than leaving them out).
    public func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
        try traffic.encode(to: encoder)
    }

    /// The line as compact JSON with sorted keys, ending in a newline.
    public func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }
}
