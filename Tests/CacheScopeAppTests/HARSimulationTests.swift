import TestFixtures
import CacheEvents
import SessionLog
import CacheScopeApp
import CachingClient
import Foundation
import HTTPCaching
import Testing

@Suite("HAR import: a DevTools capture run through the real caching engine in simulated time", .timeLimit(.minutes(2)))
struct HARSimulationTests {
    /// A capture of four resources requested twice, as a browser's DevTools would save it.
    static var capture: [UInt8] {
        let entries: [[String: Any]] = [
            entry("10:00:00.000", "/app.js", 200, ["Cache-Control": "max-age=60", "ETag": "\"a1\""], "console.log(1)"),
            entry("10:00:00.100", "/api/cart", 200, ["Cache-Control": "no-cache", "ETag": "\"c1\""], "{\"items\":[]}"),
            entry("10:00:00.200", "/news", 200, ["Cache-Control": "max-age=1", "ETag": "\"n1\""], "old news"),
            entry("10:00:00.300", "/token", 200, ["Cache-Control": "no-store"], "t1"),
            entry("10:00:10.000", "/app.js", 200, ["Cache-Control": "max-age=60", "ETag": "\"a1\""], "console.log(1)"),
            entry("10:00:10.100", "/api/cart", 304, ["Cache-Control": "no-cache", "ETag": "\"c1\""], nil),
            entry("10:00:30.200", "/news", 200, ["Cache-Control": "max-age=1", "ETag": "\"n2\""], "new news"),
            entry("10:00:30.300", "/token", 200, ["Cache-Control": "no-store"], "t2"),
        ]
        let archive: [String: Any] = ["log": ["version": "1.2", "creator": ["name": "WebInspector", "version": "537.36"], "entries": entries]]
        return Array(try! JSONSerialization.data(withJSONObject: archive, options: [.sortedKeys]))
    }

    static func entry(_ time: String, _ path: String, _ status: Int, _ headers: [String: String], _ body: String?) -> [String: Any] {
        var content: [String: Any] = ["size": body?.utf8.count ?? 0, "mimeType": "text/plain"]
        if let body { content["text"] = body }
        return [
            "startedDateTime": "2026-01-05T\(time)Z", "time": 12.5,
            "request": [
                "method": "GET", "url": "https://shop.example\(path)", "httpVersion": "h2", "headers": [[String: String]](),
                "queryString": [[String: String]](), "cookies": [[String: String]](), "headersSize": -1, "bodySize": 0,
            ] as [String: Any],
            "response": [
                "status": status, "statusText": "", "httpVersion": "h2",
                "headers": headers.sorted { $0.key < $1.key }.map { ["name": $0.key, "value": $0.value] },
                "cookies": [[String: String]](), "content": content, "redirectURL": "", "headersSize": -1, "bodySize": -1,
            ] as [String: Any],
            "cache": [String: String](), "timings": ["send": 1, "wait": 10, "receive": 1.5],
        ]
    }

    private func outcomes(_ events: [CacheEvent]) -> [(url: String, outcome: CacheOutcome, time: Double)] {
        var urls: [UInt64: String] = [:]
        var result: [(url: String, outcome: CacheOutcome, time: Double)] = []
        for event in events {
            switch event.kind {
            case .requestStarted(let started): urls[event.requestID!] = started.url
            case .requestFinished(let finished): result.append((urls[event.requestID!] ?? "?", finished.outcome, event.time))
            default: break
            }
        }
        return result
    }

    @Test("what CacheScope's cache would have done with each captured request, and why")
    func simulatedOutcomes() async throws {
        let archive = try HARReader.decode(Self.capture, file: "capture.har")
        let events = try await HARSimulator.simulate(archive)
        let results = outcomes(events)
        #expect(results.map(\.outcome) == [.miss, .miss, .miss, .miss, .hit, .revalidated, .modified, .miss])
        #expect(results[4].url == "https://shop.example/app.js")
        // Times are the capture's offsets, not the simulation's wall clock.
        #expect(abs(results[4].time - 10.0) < 0.5)
        #expect(abs(results[7].time - 30.3) < 0.5)
        // One clock: the bus and the latencies read the simulated clock, which the capture moves
        // on by each entry's 12.5 ms; a fresh hit takes no simulated time at all.
        let latencies = events.compactMap { event -> Double? in
            if case .requestFinished(let finished) = event.kind { return finished.latency }
            return nil
        }
        #expect(abs(latencies[0] - 0.0125) < 1e-6)
        #expect(latencies[4] == 0)
        #expect(results[4].time == 10.0)
        let reasons = events.compactMap { event -> String? in
            if case .requestFinished(let finished) = event.kind { return finished.reason }
            return nil
        }
        #expect(reasons[4] == "max-age=60")
        #expect(reasons[3] == "no-store")
    }

    @Test("a summary of the simulation counts what the capture's headers achieved")
    func summaryOfSimulation() async throws {
        let archive = try HARReader.decode(Self.capture, file: "capture.har")
        let events = try await HARSimulator.simulate(archive)
        let summary = SessionSummary(folding: events)
        #expect(summary.counters.count(.hit) == 1)
        #expect(summary.counters.count(.revalidated) == 1)
        #expect(summary.counters.count(.modified) == 1)
        #expect(summary.counters.count(.miss) == 5)
        #expect(summary.topMissedURLs().first?.count == 2)
    }

    /// `entry` with a `content.size` of `size` and no `text`, as an export (or DevTools, for a
    /// 304) writes it.
    static func sized(_ entry: [String: Any], _ size: Int) throws -> [String: Any] {
        var entry = entry
        var response = try #require(entry["response"] as? [String: Any])
        response["content"] = ["size": size, "mimeType": "application/javascript"]
        entry["response"] = response
        return entry
    }

    /// `entry` asked with HEAD.
    static func head(_ entry: [String: Any]) throws -> [String: Any] {
        var entry = entry
        var request = try #require(entry["request"] as? [String: Any])
        request["method"] = "HEAD"
        entry["request"] = request
        return entry
    }

    static func simulatedCounters(_ entries: [[String: Any]]) async throws -> TrafficCounters {
        let archive: [String: Any] = ["log": ["version": "1.2", "creator": ["name": "cachescope", "version": "1"], "entries": entries]]
        let bytes = Array(try JSONSerialization.data(withJSONObject: archive, options: [.sortedKeys]))
        return SessionSummary(folding: try await HARSimulator.simulate(try HARReader.decode(bytes, file: "export.har"))).counters
    }

    @Test("a capture that holds sizes but no bodies (cachescope's own export) counts its bytes")
    func sizesWithoutBodies() async throws {
        let counters = try await Self.simulatedCounters([
            try Self.sized(Self.entry("10:00:00.000", "/big.js", 200, ["Cache-Control": "max-age=60"], nil), 5000),
            try Self.sized(Self.entry("10:00:05.000", "/big.js", 200, ["Cache-Control": "max-age=60"], nil), 5000),
        ])
        #expect(counters.count(.miss) == 1 && counters.count(.hit) == 1)
        #expect(counters.bytesFromNetwork == 5000)
        #expect(counters.bytesFromCache == 5000)
    }

    @Test("a body larger than a simulation stands in for (a 1 GB download) is counted as 64 MiB, and replay says so for each such entry")
    func oversizedBodies() async throws {
        let entries = [
            try Self.sized(Self.entry("10:00:00.000", "/huge.iso", 200, ["Cache-Control": "no-store"], nil), 1_000_000_000),
            try Self.sized(Self.entry("10:00:01.000", "/small.js", 200, ["Cache-Control": "no-store"], nil), 5000),
            // A HEAD's size is the body a GET would bring: none comes, nothing is counted smaller.
            try Self.head(Self.sized(Self.entry("10:00:02.000", "/huge.iso", 200, ["Cache-Control": "no-store"], nil), 1_000_000_000)),
        ]
        let archive: [String: Any] = ["log": ["version": "1.2", "creator": ["name": "cachescope", "version": "1"], "entries": entries]]
        let directory = try TemporaryDirectory()
        let path = directory.file("huge.har")
        try JSONSerialization.data(withJSONObject: archive, options: [.sortedKeys]).write(to: URL(fileURLWithPath: path))
        let loaded = try await ReplaySource.load(path, mode: .private)
        #expect(SessionSummary(folding: loaded.events).counters.bytesFromNetwork == 64 << 20 + 5000)
        #expect(loaded.warnings == ["\(path): log.entries[0]: its body of 1,000,000,000 bytes is counted as 67,108,864, the most a simulation stands in for"])
        #expect(loaded.note?.contains("1 body counted smaller than captured") == true, "\(loaded.note ?? "")")
    }

    @Test("a 304 whose content.size is the cached body's (as DevTools writes it) brings no bytes from the origin")
    func notModifiedWithSize() async throws {
        let counters = try await Self.simulatedCounters([
            try Self.sized(Self.entry("10:00:00.000", "/img.png", 200, ["Cache-Control": "max-age=1", "ETag": "\"e1\""], nil), 5000),
            try Self.sized(Self.entry("10:00:05.000", "/img.png", 304, ["Cache-Control": "max-age=1", "ETag": "\"e1\""], nil), 5000),
        ])
        #expect(counters.count(.miss) == 1 && counters.count(.revalidated) == 1)
        #expect(counters.bytesFromNetwork == 5000, "the 200's body only")
        #expect(counters.bytesFromCache == 5000)
    }

    @Test("a HEAD with a content.size brings no body from the origin")
    func headWithSize() async throws {
        var head = try Self.sized(Self.entry("10:00:00.000", "/doc", 200, ["Cache-Control": "no-store"], nil), 5000)
        var request = try #require(head["request"] as? [String: Any])
        request["method"] = "HEAD"
        head["request"] = request
        let counters = try await Self.simulatedCounters([head])
        #expect(counters.requests == 1)
        #expect(counters.bytesFromNetwork == 0, "\(counters.bytesFromNetwork)")
    }

    @Test("a captured RFC 850 Last-Modified is read against the capture's time: 01-Jan-73 in 2026 is 2073")
    func twoDigitYearInCapture() async throws {
        let entries: [[String: Any]] = [
            Self.entry("10:00:00.000", "/doc", 200, ["Cache-Control": "no-cache", "Last-Modified": "Mon, 01 Jan 1973 00:00:00 GMT"], "v1"),
            // Sent If-Modified-Since 1973; the origin's copy was last modified in 2073: a new response.
            Self.entry("10:00:10.000", "/doc", 200, ["Cache-Control": "no-cache", "Last-Modified": "Sunday, 01-Jan-73 00:00:00 GMT"], "v2"),
        ]
        let log: [String: Any] = ["version": "1.2", "creator": ["name": "WebInspector", "version": "537.36"], "entries": entries]
        let data = try JSONSerialization.data(withJSONObject: ["log": log], options: [.sortedKeys])
        let events = try await HARSimulator.simulate(try HARReader.decode(Array(data), file: "capture.har"))
        #expect(outcomes(events).map(\.outcome) == [.miss, .modified])
    }
}
