import CacheEvents
import SessionLog
import Foundation
import HTTPCaching
import Testing
import HTTPTypes

@Suite("Session summary")
struct SessionSummaryTests {
    static let summary = SessionSummary(folding: SampleSession.events)

    @Test("counts, ratios, bytes and top lists of the sample session")
    func figures() {
        let summary = Self.summary
        let counters = summary.counters
        #expect(summary.eventCount == 54)
        #expect(summary.duration == 13.25)
        #expect(counters.requests == 9)
        #expect(counters.coalesced == 1)
        #expect(CacheOutcome.allCases.map { counters.count($0) } == [1, 1, 1, 1, 3, 1, 1])
        #expect(counters.hitRatio == 3.0 / 8.0)
        #expect(counters.bytesFromCache == 2250)
        #expect(counters.bytesFromNetwork == 2460)
        #expect(counters.byteHitRatio == 2250.0 / 4710.0)
        #expect(counters.bytesSaved == 2250)
        #expect(summary.topMissedURLs() == [URLCount(url: "https://example.com/b", count: 2), URLCount(url: "https://example.com/a?lang=en&q=caf%C3%A9", count: 1)])
        #expect(summary.topEvictedKeys() == [KeyCount(key: "GET https://example.com/b", count: 2), KeyCount(key: "GET https://example.com/a?lang=en&q=caf%C3%A9", count: 1)])
    }

    @Test("top lists: at most ten, most first, ties by name; misses without requestStarted counted as unknown")
    func topLists() {
        var summary = SessionSummary()
        var seq: UInt64 = 0
        func add(_ kind: CacheEventKind, _ id: UInt64? = nil) {
            seq += 1
            summary.apply(CacheEvent(seq: seq, time: Double(seq), requestID: id, kind: kind))
        }
        var id: UInt64 = 0
        for (index, url) in (0..<12).map({ "https://x/\($0)" }).enumerated() {
            for _ in 0...(index % 3) {
                id += 1
                add(.requestStarted(RequestStarted(method: "GET", url: url, cacheKey: "GET \(url)", policy: "protocol", headers: [:])), id)
                add(.requestFinished(RequestFinished(status: 200, latency: 0.1, bytesFromNetwork: 1, bytesFromCache: 0, outcome: .miss, reason: "")), id)
            }
        }
        add(.requestFinished(RequestFinished(status: 200, latency: 0.1, bytesFromNetwork: 1, bytesFromCache: 0, outcome: .miss, reason: "")), 999)
        let top = summary.topMissedURLs()
        #expect(top.count == 10)
        #expect(top.map(\.count) == [3, 3, 3, 3, 2, 2, 2, 2, 1, 1])
        #expect(top.prefix(4).map(\.url) == ["https://x/11", "https://x/2", "https://x/5", "https://x/8"])
        #expect(summary.missesByURL[SessionSummary.unknownURL] == 1)
    }

    @Test("a fleet's instances number their requests alike: each miss is credited to its own instance's URL")
    func fleetRequestIDs() {
        var summary = SessionSummary()
        var seq: UInt64 = 0
        func add(_ kind: CacheEventKind, id: UInt64, instance: UInt16) {
            seq += 1
            var event = CacheEvent(seq: seq, time: Double(seq), requestID: id, kind: kind)
            event.instance = instance
            summary.apply(event)
        }
        let miss = RequestFinished(status: 503, latency: 0.1, bytesFromNetwork: 1, bytesFromCache: 0, outcome: .miss, reason: "")
        // Both instances' first request is request 1, and their events interleave.
        add(.requestStarted(RequestStarted(method: "GET", url: "https://a/slow", cacheKey: "GET https://a/slow", policy: "protocol", headers: [:])), id: 1, instance: 0)
        add(.requestStarted(RequestStarted(method: "GET", url: "https://b/fast", cacheKey: "GET https://b/fast", policy: "protocol", headers: [:])), id: 1, instance: 1)
        add(.requestFinished(miss), id: 1, instance: 1)
        add(.requestFinished(miss), id: 1, instance: 0)
        #expect(summary.missesByURL["https://a/slow"] == 1)
        #expect(summary.missesByURL["https://b/fast"] == 1)
        #expect(summary.missesByURL[SessionSummary.unknownURL] == nil)
    }

    @Test("text rendering")
    func text() {
        let expected = """
            Session: 54 events over \(String(format: "%.1f", 13.25)) s
            Requests: 9 (1 coalesced)
              hit                1    11.1%
              stale              1    11.1%
              revalidated        1    11.1%
              modified           1    11.1%
              miss               3    33.3%
              bypass             1    11.1%
              error              1    11.1%
            Hit ratio: 37.5% of 8 requests (bypass excluded)
            Byte hit ratio: 47.8% (2.2 KiB from cache, 2.4 KiB from network)
            Bytes saved: 2.2 KiB (2,250 bytes)
            Evictions: 3 (capacity 1, expired 1, purge 1, corrupt 0, invalidated 0)
            Dropped events: 3

            Top missed URLs:
                   2  https://example.com/b
                   1  https://example.com/a?lang=en&q=caf%C3%A9
            Top evicted keys:
                   2  GET https://example.com/b
                   1  GET https://example.com/a?lang=en&q=caf%C3%A9

            """
        #expect(Self.summary.text == expected)
    }

    @Test("text of an empty session")
    func emptyText() {
        let text = SessionSummary().text
        #expect(text.contains("Hit ratio: n/a (no requests the cache could answer)\n"))
        #expect(text.contains("Byte hit ratio: n/a (no body bytes)\n"))
        #expect(text.hasSuffix("Top missed URLs:\n  (none)\nTop evicted keys:\n  (none)\n"))
    }

    @Test("JSON: stable field names, every field present, null ratios when undefined")
    func json() throws {
        let data = Data(try Self.summary.jsonString().utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == [
            "format", "version", "events", "duration", "requests", "outcomes", "coalesced", "backgroundRefreshes", "hitRatio", "byteHitRatio",
            "bytesFromCache", "bytesFromNetwork", "bytesSaved", "evictions", "droppedEvents", "topMissedURLs", "topEvictedKeys",
        ])
        #expect(object["format"] as? String == "cachescope-summary")
        #expect(object["version"] as? Int == 1)
        #expect(object["requests"] as? Int == 9)
        #expect(object["hitRatio"] as? Double == 0.375)
        let outcomes = try #require(object["outcomes"] as? [String: Int])
        #expect(outcomes == ["hit": 1, "stale": 1, "revalidated": 1, "modified": 1, "miss": 3, "bypass": 1, "error": 1])
        #expect(object["evictions"] as? [String: Int] == ["capacity": 1, "expired": 1, "purge": 1, "corrupt": 0, "invalidated": 0])
        let missed = try #require(object["topMissedURLs"] as? [[String: Any]])
        #expect(missed.first?["url"] as? String == "https://example.com/b")
        #expect(missed.first?["count"] as? Int == 2)
        let decoded = try JSONDecoder().decode(SessionSummaryReport.self, from: data)
        #expect(decoded == Self.summary.report)

        let empty = try SessionSummary().jsonString(pretty: false)
        #expect(empty.contains(#""hitRatio":null"#) && empty.contains(#""byteHitRatio":null"#))
        #expect(empty.hasPrefix(#"{"backgroundRefreshes":0,"byteHitRatio":null,"bytesFromCache":0,"#))
    }
}
