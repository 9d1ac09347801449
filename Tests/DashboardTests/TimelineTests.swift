import CacheEvents
import CacheStore
import Foundation
import HTTPCaching
import SessionLog
import Testing
import TerminalUI
@testable import Dashboard

/// What the sparklines and the Stats view read: the timeline on the session clock, latency by
/// outcome, the expiry outlook and the top missed URLs.
@Suite("Timeline, latency by outcome, expiry and misses")
struct TimelineTests {
    /// A finished request at `time` with `outcome` and `latency`.
    private static func finished(_ seq: Int, at time: Double, _ outcome: CacheOutcome, latency: Double = 0.01) -> CacheEvent {
        CacheEvent(seq: UInt64(seq), time: time, requestID: UInt64(seq), kind: .requestFinished(RequestFinished(
            status: 200, latency: latency, bytesFromNetwork: 0, bytesFromCache: 0, outcome: outcome, reason: "")))
    }

    @Test("The last minute follows event timestamps: a second leaves the window 60 s later")
    func lastMinute() {
        var model = TrafficModel()
        model.apply(Self.finished(1, at: 1.2, .hit))
        model.apply(Self.finished(2, at: 1.7, .miss))
        model.apply(Self.finished(3, at: 30.5, .bypass))
        let atSixty = model.timeline.lastMinute(endingAt: 60)
        #expect(atSixty.count == 60)
        #expect(atSixty.first?.requests == 2 && atSixty.first?.hitRatio == 0.5)
        #expect(atSixty[29].requests == 1 && atSixty[29].hitRatio == nil, "bypass is left out of the hit ratio")
        let later = model.timeline.lastMinute(endingAt: 61)
        #expect(later.reduce(0) { $0 + $1.requests } == 1, "second 1 is older than the last 60 s at 61")
    }

    @Test("The whole session halves its resolution as it grows, and keeps every request and eviction")
    func wholeSession() {
        var model = TrafficModel()
        for second in 0..<1000 { model.apply(Self.finished(second + 1, at: Double(second) + 0.5, second < 10 ? .hit : .miss)) }
        model.apply(CacheEvent(seq: 2000, time: 999, requestID: nil, kind: .evicted(Evicted(
            entry: EntryRef(key: "GET http://h/a"), reason: .expired, tier: .memory, size: 10))))
        let buckets = model.timeline.wholeSession(endingAt: 999.9)
        #expect(model.timeline.bucketWidth == 8)
        #expect(buckets.count <= TrafficTimeline.sessionCapacity)
        #expect(buckets.reduce(0) { $0 + $1.requests } == 1000)
        #expect(buckets.reduce(0) { $0 + $1.fromCache } == 10)
        #expect(buckets.last?.evictions(.expired) == 1)
    }

    @Test("A replay's sparklines show the whole session; live shows only its last minute")
    func replayShowsWholeSession() throws {
        var live = DashboardState(mode: .live)
        var replay = DashboardState(mode: .replay(ReplayStatus(
            speed: .realTime, position: 600, length: 600, isPlaying: false, eventsApplied: 0, eventCount: 0)))
        // A burst in the first minute, then one request a minute.
        var events = (0..<50).map { Self.finished($0 + 1, at: 5 + Double($0) * 0.1, .hit) }
        events += (1...9).map { Self.finished(100 + $0, at: Double($0) * 60 + 30, .miss) }
        for event in events {
            live.apply(event)
            replay.apply(event)
        }
        let liveRow = SparklineRow.spans(live.shown, isReplay: false, width: 200, now: 600, style: .blocks)
        let replayRow = SparklineRow.spans(replay.shown, isReplay: true, width: 200, now: 600, style: .blocks)
        let liveText = liveRow.map(\.text).joined()
        let replayText = replayRow.map(\.text).joined()
        #expect(liveText.contains("peak 1.0/s") && liveText.contains("last 60 s"), "\(liveText)")
        #expect(replayText.contains("whole session") && !replayText.contains("peak 1.0/s"), "\(replayText)")
        // The burst's column is the peak, marked in `warning` and drawn full.
        let peak = try #require(replayRow.first { $0.role == .warning })
        #expect(peak.text == "█")
    }

    @Test("Sparkline glyphs: blocks, ASCII under mono, a space for nothing and the lowest level for a little")
    func glyphs() {
        #expect(Grid.sparkGlyph(fraction: 1) == "█")
        #expect(Grid.sparkGlyph(fraction: 0.001) == "▁")
        #expect(Grid.sparkGlyph(fraction: 0) == " ")
        #expect(Grid.sparkGlyph(fraction: .nan) == " ")
        #expect(Grid.sparkGlyph(fraction: 1, style: .ascii) == "#")
        #expect(Grid.sparkGlyph(fraction: 0.5, style: .ascii) == ":")
        let line = Sparkline(values: [nil, 1, 4, 2], scale: nil)
        #expect(line.peak?.column == 2)
        #expect(line.spans(style: .ascii).map(\.text) == [" .", "#", ":"])
    }

    @Test("Latency by outcome: each outcome's percentiles come from its own requests")
    func latencyByOutcome() throws {
        var model = TrafficModel()
        for index in 0..<99 { model.apply(Self.finished(index + 1, at: 1, .miss, latency: 0.010)) }
        model.apply(Self.finished(100, at: 1, .miss, latency: 2))
        for index in 0..<50 { model.apply(Self.finished(200 + index, at: 1, .hit, latency: 0.0002)) }
        let miss = model.latencyByOutcome[.miss]
        let hit = model.latencyByOutcome[.hit]
        #expect(miss.count == 100 && hit.count == 50 && model.latencyByOutcome[.stale].count == 0)
        let missP50 = try #require(miss.percentile(0.5))
        #expect(abs(missP50 - 0.010) / 0.010 < 0.06)
        #expect(miss.percentile(1) == 2)
        let hitP99 = try #require(hit.percentile(0.99))
        #expect(abs(hitP99 - 0.0002) / 0.0002 < 0.06, "hits are not slowed down by the misses")
        #expect(model.latency.count == 150)
    }

    @Test("Expiry outlook: cumulative counts and bytes within 10 s, 1 min, 10 min; stale ones apart")
    func expiryOutlook() {
        var model = TrafficModel()
        let entries = [(5.0, 100), (30, 200), (300, 400), (3000, 800), (-1, 1600)].enumerated().map { index, entry in
            EntryInfo(entry: EntryRef(key: "GET http://h/\(index)"), tier: .memory, size: entry.1, ttl: entry.0, age: 0,
                      etag: nil, lastModified: nil, hits: 0, idle: 0, status: 200)
        }
        model.apply(CacheEvent(seq: 1, time: 0, requestID: nil, kind: .entries(EntriesSnapshot(entries: entries))))
        let outlook = ExpiryOutlook(model.entries, at: 0)
        #expect(outlook.entries == [1, 2, 3])
        #expect(outlook.bytes == [100, 300, 700])
        #expect(outlook.expired == 1)
        // Ten seconds later the 5 s entry is stale and the 30 s one is within 10 min, not 10 s.
        let later = ExpiryOutlook(model.entries, at: 10)
        #expect(later.entries == [0, 1, 2] && later.expired == 2)
    }

    @Test("The drawn expiry outlook is worked out at most once per second of session time, or when entries come or go")
    func expiryOutlookRemembered() {
        func snapshot(_ ttls: [Double]) -> CacheEvent {
            let entries = ttls.enumerated().map { index, ttl in
                EntryInfo(entry: EntryRef(key: "GET http://h/\(index)"), tier: .memory, size: 100, ttl: ttl, age: 0,
                          etag: nil, lastModified: nil, hits: 0, idle: 0, status: 200)
            }
            return CacheEvent(seq: 1, time: 0, requestID: nil, kind: .entries(EntriesSnapshot(entries: entries)))
        }
        var model = TrafficModel()
        model.apply(snapshot([5, 30, 300]))
        #expect(ExpiryOutlook.current(model.entries, at: 0.2).entries == [1, 2, 3])
        // The same entries with longer lifetimes, later in the same second: the frame shows
        // what was worked out at 0.2 s …
        model.apply(snapshot([500, 500, 500]))
        #expect(ExpiryOutlook.current(model.entries, at: 0.7).entries == [1, 2, 3])
        // … and from the next second on, the new lifetimes.
        #expect(ExpiryOutlook.current(model.entries, at: 1.1).entries == [0, 0, 3])
        // An entry more is counted at once, within the same second.
        model.apply(snapshot([500, 500, 500, 5]))
        #expect(ExpiryOutlook.current(model.entries, at: 1.4).entries == [1, 1, 4])
        // A table that is not a copy works out its own.
        var other = TrafficModel()
        other.apply(snapshot([5]))
        #expect(ExpiryOutlook.current(other.entries, at: 1.4).entries == [1, 1, 1])
    }

    @Test("Top missed URLs: by count, each with its reason, a URL missing for two reasons twice")
    func missedURLs() {
        let state = SampleSession.state()
        let top = MissedURL.top(in: state.shown.requests, limit: 10)
        #expect(top.first == MissedURL(url: SampleSession.origin + "/evil\u{1B}[2J?q=東京", reason: "not in cache", count: 1))
        #expect(top.contains(MissedURL(url: SampleSession.origin + "/no-store?id=2", reason: "no-store", count: 1)))
        #expect(top.count == 4)
        #expect(MissedURL.top(in: state.shown.requests, limit: 2).count == 2)
    }

    @Test("Requests view: the reason column is as wide as the longest reason on screen; URLs give way")
    func reasonColumn() throws {
        let state = SampleSession.state()
        for size in [TerminalSize(columns: 120, rows: 40), TerminalSize(columns: 80, rows: 24)] {
            let text = try render(state, size: size).text
            #expect(text.contains("⇢ BYPASS method POST is not cached"), "\(size):\n\(text)")
            #expect(text.contains("± MODIFIED 200 after expired 2s ago"), "\(size):\n\(text)")
        }
    }
}
