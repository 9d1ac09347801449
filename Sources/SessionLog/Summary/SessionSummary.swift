public import CacheEvents
import HTTPCaching

/// What a session amounted to: counts by outcome, hit ratios, bytes saved, the URLs missed
/// most and the keys evicted most. Built by folding events, so the summary a recording run
/// prints at its end equals the one computed later from its log.
///
/// ```swift
/// let summary = SessionSummary(folding: log.events)
/// print(summary.text)                 // cachescope replay FILE --summary
/// print(try summary.jsonString())     // cachescope replay FILE --summary --json
/// ```
///
/// The counters and ratios are ``TrafficCounters``' (same definitions as the dashboard's
/// header). A miss is attributed to the URL of its request's `requestStarted`, or to
/// ``unknownURL`` when the log began after that event.
public struct SessionSummary: EventFolding, Hashable {
    /// How many entries the top lists hold: 10.
    public static let topCount = 10
    /// The URL recorded for a miss whose `requestStarted` is not in the log.
    public static let unknownURL = "(unknown URL)"

    /// The running totals.
    public private(set) var counters = TrafficCounters()
    /// Events folded.
    public private(set) var eventCount = 0
    /// The first event's time, if any.
    public private(set) var firstTime: Double?
    /// The last event's time, if any.
    public private(set) var lastTime: Double?
    /// Misses per URL (bounded: see ``BoundedCounts``).
    public var missesByURL: [String: Int] { misses.counts }
    /// Evictions per primary cache key (bounded: see ``BoundedCounts``).
    public var evictionsByKey: [String: Int] { evictions.counts }
    /// How many misses a URL's count may lack: 0 unless more than ``BoundedCounts/capacity``
    /// URLs missed, when the least-missed were dropped to keep the summary's memory bounded.
    public var missUndercount: Int { misses.undercount }
    /// How many evictions a key's count may lack (as ``missUndercount``).
    public var evictionUndercount: Int { evictions.undercount }
    private var misses = BoundedCounts()
    private var evictions = BoundedCounts()
    /// URLs of requests started but not yet finished, by ``CacheEvent/requestKey`` (a fleet's
    /// instances each number their requests from 1).
    private var openRequests: [UInt64: String] = [:]

    /// An empty summary.
    public init() {}

    /// Adds one event.
    public mutating func apply(_ event: CacheEvent) {
        counters.apply(event)
        eventCount += 1
        if firstTime == nil { firstTime = event.time }
        lastTime = event.time
        switch event.kind {
        case .requestStarted(let started):
            if let key = event.requestKey { openRequests[key] = started.url }
        case .requestFinished(let finished):
            let url = event.requestKey.flatMap { openRequests.removeValue(forKey: $0) }
            if finished.outcome == .miss, !finished.background { misses.add(url ?? Self.unknownURL) }
        case .evicted(let evicted):
            evictions.add(evicted.entry.key)
        default:
            break
        }
    }

    /// Seconds from the first event to the last.
    public var duration: Double { (lastTime ?? 0) - (firstTime ?? 0) }

    /// The URLs with the most misses, most first (ties by URL), at most `limit`.
    public func topMissedURLs(_ limit: Int = SessionSummary.topCount) -> [URLCount] {
        CountRanking.top(missesByURL, limit: limit).map { URLCount(url: $0.key, count: $0.count) }
    }

    /// The keys evicted most often, most first (ties by key), at most `limit`.
    public func topEvictedKeys(_ limit: Int = SessionSummary.topCount) -> [KeyCount] {
        CountRanking.top(evictionsByKey, limit: limit).map { KeyCount(key: $0.key, count: $0.count) }
    }
}

/// A URL and how many times it missed.
public struct URLCount: Sendable, Hashable, Codable {
    /// The URL.
    public var url: String
    /// Misses.
    public var count: Int

    /// Creates an entry.
    public init(url: String, count: Int) {
        self.url = url
        self.count = count
    }
}

/// A primary cache key and how many times it was evicted.
public struct KeyCount: Sendable, Hashable, Codable {
    /// The key (`GET https://…`).
    public var key: String
    /// Evictions.
    public var count: Int

    /// Creates an entry.
    public init(key: String, count: Int) {
        self.key = key
        self.count = count
    }
}
