import CacheEvents
import HTTPCaching
import HTTPTypes
import SessionLog
import Testing

/// A summary runs for as long as the app or proxy does: its per-URL counts must stay bounded
/// over any number of distinct URLs, exact while few, and keep what keeps coming back.
@Suite("Bounded per-URL counts")
struct BoundedCountsTests {
    @Test("exact while at most capacity names were seen")
    func exactUnderCapacity() {
        var counts = BoundedCounts(capacity: 4)
        for name in ["a", "b", "a", "c", "d", "a", "b"] { counts.add(name) }
        #expect(counts.counts == ["a": 3, "b": 2, "c": 1, "d": 1])
        #expect(counts.undercount == 0)
    }

    @Test("past capacity the least counted go, at most capacity are held, and what keeps coming back stays")
    func bounded() {
        var counts = BoundedCounts(capacity: 100)
        for round in 0..<50 {
            for unique in 0..<40 { counts.add("once-\(round)-\(unique)") }
            counts.add("hot")
            counts.add("hot")
            #expect(counts.counts.count <= 100)
        }
        #expect(counts.undercount >= 1)
        let hot = counts.counts["hot"] ?? 0
        #expect(hot <= 100 && hot >= 100 - counts.undercount)
        #expect(counts.counts.max { $0.value < $1.value }?.key == "hot")
    }

    @Test("the same names in the same order give the same counts")
    func deterministic() {
        func fold() -> BoundedCounts {
            var counts = BoundedCounts(capacity: 10)
            for index in 0..<1_000 { counts.add("u\(index % 37)-\(index % 3 == 0 ? "x" : "\(index)")") }
            return counts
        }
        #expect(fold() == fold())
    }

    @Test("a session summary over 30,000 distinct missed URLs holds at most the capacity and says its counts may be short")
    func summaryBounded() {
        var summary = SessionSummary()
        var seq: UInt64 = 0
        func event(_ id: UInt64, _ kind: CacheEventKind) -> CacheEvent {
            seq += 1
            return CacheEvent(seq: seq, time: Double(seq), requestID: id, kind: kind)
        }
        for id in UInt64(1)...30_000 {
            let url = id % 10 == 0 ? "https://example.com/hot" : "https://example.com/\(id)"
            summary.apply(event(id, .requestStarted(RequestStarted(method: "GET", url: url, cacheKey: "GET " + url, policy: "default", headers: [:]))))
            summary.apply(event(id, .requestFinished(RequestFinished(
                status: 200, latency: 0.01, bytesFromNetwork: 10, bytesFromCache: 0, outcome: .miss, reason: "not in cache"))))
        }
        #expect(summary.missesByURL.count <= BoundedCounts.capacity)
        #expect(summary.topMissedURLs(1).first?.url == "https://example.com/hot")
        #expect(summary.missUndercount > 0)
        #expect(summary.text.contains("Top missed URLs: (more than 10,000 URLs missed; counts may be short by up to"))
        #expect(summary.counters.requests == 30_000)
    }
}
