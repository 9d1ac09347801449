import CacheEvents
import Foundation
import HTTPCaching
import CacheStore

/// The JSON form of a ``SessionSummary`` (`cachescope replay FILE --summary --json`). Field
/// names are stable; every field is always present (ratios are `null` when undefined).
/// `docs/session-log.md` documents each one.
///
/// The report's own fields (``Fields``) and the counters' figures it shares with the
/// `--stats-every` lines (``TrafficFigures``) are written side by side in one object; each is
/// read as a property of the report (`report.hitRatio`, `report.topMissedURLs`).
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
@dynamicMemberLookup
public struct SessionSummaryReport: Sendable, Hashable, Codable {
    /// Requests by outcome word.
    public typealias Outcomes = TrafficFigures.Outcomes
    /// Evictions by reason.
    public typealias Evictions = TrafficFigures.Evictions

    /// The summary's own fields, beside the ``TrafficFigures``.
    public struct Fields: Sendable, Hashable, Codable {
        /// Always `cachescope-summary`.
        public var format = "cachescope-summary"
        /// The report's version: 1.
        public var version = 1
        /// Events folded.
        public var events: Int
        /// Seconds from the first event to the last.
        public var duration: Double
        /// The 10 URLs with the most misses, most first.
        public var topMissedURLs: [URLCount]
        /// The 10 keys evicted most often, most first.
        public var topEvictedKeys: [KeyCount]
    }

    /// The summary's own fields.
    public var fields: Fields
    /// The counters' figures.
    public var traffic: TrafficFigures

    /// A report of `fields` and `traffic`.
    public init(fields: Fields, traffic: TrafficFigures) {
        self.fields = fields
        self.traffic = traffic
    }

    /// One of the summary's own fields.
    public subscript<Value>(dynamicMember keyPath: KeyPath<Fields, Value>) -> Value { fields[keyPath: keyPath] }
    /// One of the counters' figures.
    public subscript<Value>(dynamicMember keyPath: KeyPath<TrafficFigures, Value>) -> Value { traffic[keyPath: keyPath] }

    /// Reads both parts from the one object.
    public init(from decoder: any Decoder) throws {
        fields = try Fields(from: decoder)
        traffic = try TrafficFigures(from: decoder)
    }

    /// Writes both parts into one object (``ExplicitNull`` writes `null` for undefined ratios).
    public func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
        try traffic.encode(to: encoder)
    }
}

extension SessionSummary {
    /// The summary as its stable JSON object.
    public var report: SessionSummaryReport {
        SessionSummaryReport(
            fields: .init(events: eventCount, duration: duration, topMissedURLs: topMissedURLs(), topEvictedKeys: topEvictedKeys()),
            traffic: TrafficFigures(counters))
    }

    /// ``report`` as JSON text: keys sorted, slashes unescaped, pretty-printed unless asked not to be.
    public func jsonString(pretty: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }
}
