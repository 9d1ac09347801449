public import CacheEvents
import Foundation
import HTTPCaching
import CacheStore

/// The JSON form of a ``SessionSummary`` (`cachescope replay FILE --summary --json`). Field
/// names are stable; every field is always present (ratios are `null` when undefined).
/// `docs/session-log.md` documents each one.
///
/// ```json
/// {"format":"cachescope-summary","version":1,"events":1204,"duration":61.5,"requests":200,
///  "outcomes":{"hit":120,"stale":3,"revalidated":20,"modified":2,"miss":50,"bypass":4,"error":1},
///  "coalesced":6,"backgroundRefreshes":0,"hitRatio":0.7128,"byteHitRatio":0.64,"bytesFromCache":640000,
///  "bytesFromNetwork":360000,"bytesSaved":640000,
///  "evictions":{"capacity":3,"expired":1,"purge":0,"corrupt":0},"droppedEvents":0,
///  "topMissedURLs":[{"url":"https://example.com/a","count":9}],
///  "topEvictedKeys":[{"key":"GET https://example.com/b","count":2}]}
/// ```
public struct SessionSummaryReport: Sendable, Hashable, Codable {
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

        /// The evictions of `counters`.
        public init(_ counters: TrafficCounters) {
            capacity = counters.evictions[.capacity] ?? 0
            expired = counters.evictions[.expired] ?? 0
            purge = counters.evictions[.purged] ?? 0
            corrupt = counters.evictions[.corrupt] ?? 0
        }
    }

    /// Always `cachescope-summary`.
    public var format = "cachescope-summary"
    /// The report's version: 1.
    public var version = 1
    /// Events folded.
    public var events: Int
    /// Seconds from the first event to the last.
    public var duration: Double
    /// Finished requests.
    public var requests: Int
    /// Finished requests by outcome.
    public var outcomes: Outcomes
    /// Requests that shared another's origin fetch.
    public var coalesced: Int
    /// The cache's own background refreshes (stale-while-revalidate): not in `requests` or
    /// `outcomes`; their network bytes are in `bytesFromNetwork`.
    public var backgroundRefreshes: Int
    /// (hit + stale + revalidated) ÷ every outcome but bypass; `null` without such requests.
    public var hitRatio: Double?
    /// Bytes from the cache ÷ (from the cache + from the network); `null` before any byte.
    public var byteHitRatio: Double?
    /// Body bytes served from the cache.
    public var bytesFromCache: Int
    /// Body bytes received from the origin.
    public var bytesFromNetwork: Int
    /// Body bytes that did not cross the network (= `bytesFromCache`).
    public var bytesSaved: Int
    /// Evictions by reason.
    public var evictions: Evictions
    /// Events slow watchers lost (from `dropped` events in the log).
    public var droppedEvents: Int
    /// The 10 URLs with the most misses, most first.
    public var topMissedURLs: [URLCount]
    /// The 10 keys evicted most often, most first.
    public var topEvictedKeys: [KeyCount]

    private enum CodingKeys: String, CodingKey {
        case format, version, events, duration, requests, outcomes, coalesced, backgroundRefreshes, hitRatio, byteHitRatio
        case bytesFromCache, bytesFromNetwork, bytesSaved, evictions, droppedEvents, topMissedURLs, topEvictedKeys
    }

    /// Encodes every field, writing `null` for undefined ratios rather than leaving them out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encode(version, forKey: .version)
        try container.encode(events, forKey: .events)
        try container.encode(duration, forKey: .duration)
        try container.encode(requests, forKey: .requests)
        try container.encode(outcomes, forKey: .outcomes)
        try container.encode(coalesced, forKey: .coalesced)
        try container.encode(backgroundRefreshes, forKey: .backgroundRefreshes)
        try container.encode(hitRatio, forKey: .hitRatio)
        try container.encode(byteHitRatio, forKey: .byteHitRatio)
        try container.encode(bytesFromCache, forKey: .bytesFromCache)
        try container.encode(bytesFromNetwork, forKey: .bytesFromNetwork)
        try container.encode(bytesSaved, forKey: .bytesSaved)
        try container.encode(evictions, forKey: .evictions)
        try container.encode(droppedEvents, forKey: .droppedEvents)
        try container.encode(topMissedURLs, forKey: .topMissedURLs)
        try container.encode(topEvictedKeys, forKey: .topEvictedKeys)
    }
}

extension SessionSummary {
    /// The summary as its stable JSON object.
    public var report: SessionSummaryReport {
        let counters = counters
        return SessionSummaryReport(
            events: eventCount, duration: duration, requests: counters.requests, outcomes: .init(counters),
            coalesced: counters.coalesced, backgroundRefreshes: counters.backgroundRefreshes, hitRatio: counters.hitRatio,
            byteHitRatio: counters.byteHitRatio,
            bytesFromCache: counters.bytesFromCache, bytesFromNetwork: counters.bytesFromNetwork,
            bytesSaved: counters.bytesSaved, evictions: .init(counters), droppedEvents: counters.droppedEvents,
            topMissedURLs: topMissedURLs(), topEvictedKeys: topEvictedKeys())
    }

    /// ``report`` as JSON text: keys sorted, slashes unescaped, pretty-printed unless asked not to be.
    public func jsonString(pretty: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }
}
