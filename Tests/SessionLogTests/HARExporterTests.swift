import TestFixtures
import CacheEvents
import SessionLog
import Foundation
import HTTPCaching
import HTTPTypes
import Testing

@Suite("HAR exporter")
struct HARExporterTests {
    static let start = Date(timeIntervalSince1970: 1_763_802_843)  // 2025-11-22T09:14:03Z
    static let log = SessionLog(header: SessionLogHeader(startedAt: start, redacted: true), events: SampleSession.events)

    private func stamp(_ sessionTime: Double) -> String {
        ISO8601Timestamp.string(from: Self.start.addingTimeInterval(sessionTime))
    }

    @Test("one entry per finished request, in start order, with the outcome fields")
    func entries() {
        let export = HARExporter().export(Self.log)
        let entries = export.archive.log.entries
        #expect(entries.count == 9)
        #expect(export.requestsWithoutStart == 0 && export.unfinishedRequests == 0)
        #expect(export.archive.log.creator == HARCreator(name: "cachescope", version: "0.1.0"))
        #expect(entries.map(\.cacheStatus) == ["miss", "hit", "revalidated", "miss", "miss", "modified", "stale", "bypass", "error"])
        #expect(entries[1].cacheReason == "max-age=60")
        #expect(entries[1].ttl == 55 && entries[1].age == 5)
        #expect(entries[0].startedDateTime == stamp(0.5))
        #expect(entries[0].time == 12.345678901234567)
        #expect(entries[0].timings.wait == entries[0].time && entries[0].timings.send == 0 && entries[0].timings.dns == -1)
        #expect(entries[0].request.queryString == [HARNameValue(name: "lang", value: "en"), HARNameValue(name: "q", value: "café")])
        #expect(entries[0].request.headers.first { $0.name == "Authorization" }?.value == "Bearer secret-token")
        #expect(entries[0].response.headers.map(\.name) == ["Content-Type", "Cache-Control", "ETag", "Set-Cookie"])
        #expect(entries[0].response.content == HARContent(size: 1000, mimeType: "application/json; charset=utf-8"))
        #expect(entries[0].response.bodySize == 1000 && entries[1].response.bodySize == 0)
        #expect(entries[0].response.statusText == "OK")
        #expect(entries[7].request.method == "POST" && entries[7].response.status == 201 && entries[7].response.statusText == "Created")
        #expect(entries[8].response.status == 0)
    }

    @Test("the cache object follows the entry: stored, hit, freshened by 304, replaced")
    func cacheObject() {
        let entries = HARExporter().export(Self.log).archive.log.entries
        // 1: a miss that stored the response (stored at t=1.25 with max-age 60).
        #expect(entries[0].cache.beforeRequest == .notCached)
        #expect(entries[0].cache.afterRequest == .cached(HARCacheEntry(expires: stamp(61.25), lastAccess: stamp(1.25), eTag: "\"v1\"", hitCount: 0)))
        // 2: a fresh hit (lookup at t=2, ttl 55; served at 2.25).
        #expect(entries[1].cache.beforeRequest == .cached(HARCacheEntry(expires: stamp(57), lastAccess: stamp(1.25), eTag: "\"v1\"", hitCount: 0)))
        #expect(entries[1].cache.afterRequest == .cached(HARCacheEntry(expires: stamp(61.25), lastAccess: stamp(2.25), eTag: "\"v1\"", hitCount: 1)))
        // 3: stale, 304 at t=3.5 freshened it for 60 s, served at 3.75.
        #expect(entries[2].cache.beforeRequest.entry?.hitCount == 1)
        #expect(entries[2].cache.beforeRequest.entry?.expires == stamp(0))
        #expect(entries[2].cache.afterRequest == .cached(HARCacheEntry(expires: stamp(63.5), lastAccess: stamp(3.75), eTag: "\"v1\"", hitCount: 2)))
        // 6: modified, a new representation stored: the hit count starts again.
        #expect(entries[5].cache.beforeRequest.entry?.hitCount == 2)
        #expect(entries[5].cache.afterRequest.entry?.eTag == "\"v2\"")
        #expect(entries[5].cache.afterRequest.entry?.hitCount == 0)
        // 8: a POST has no cache key: nothing known.
        #expect(entries[7].cache == HARCache())
        // 9: a miss that failed stays out of the cache.
        #expect(entries[8].cache == HARCache(beforeRequest: .notCached, afterRequest: .notCached))
    }

    @Test("an expiry past the year 9999 (an Expires that far ahead) is left out, not written as a timestamp no reader takes")
    func farExpiry() {
        var storedOnce = false
        let events = SampleSession.events.map { event -> CacheEvent in
            guard !storedOnce, case .stored(var stored) = event.kind else { return event }
            storedOnce = true
            stored.ttl = 1e12
            var changed = event
            changed.kind = .stored(stored)
            return changed
        }
        let entries = HARExporter().export(SessionLog(header: SessionLogHeader(startedAt: Self.start, redacted: true), events: events)).archive.log.entries
        #expect(storedOnce)
        #expect(entries[0].cache.afterRequest.entry != nil)
        #expect(entries[0].cache.afterRequest.entry?.expires == nil)
    }

    @Test("written HAR: cache fields present in the JSON, readable by HARReader")
    func writeAndRead() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("export.har")
        let archive = HARExporter().export(Self.log).archive
        try archive.write(to: path)
        #expect(try HARReader.load(path) == archive)

        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let entries = try #require((json["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        let first = entries[0]
        #expect(first["_cacheStatus"] as? String == "miss")
        #expect(first["_cacheReason"] as? String == "not in cache")
        #expect(first["_ttl"] as? Double == 60)
        #expect(first["_age"] as? Double == 0)
        let cache = try #require(first["cache"] as? [String: Any])
        #expect(cache["beforeRequest"] is NSNull)
        let after = try #require(cache["afterRequest"] as? [String: Any])
        #expect(after["eTag"] as? String == "\"v1\"")
        #expect(after["hitCount"] as? Int == 0)
        #expect(after["expires"] as? String == stamp(61.25))
        let post = try #require(entries[7]["cache"] as? [String: Any])
        #expect(post.isEmpty)
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("https://example.com/b"))
    }

    @Test("a background refresh (stale-while-revalidate) is no request of the app's: not an entry")
    func backgroundRefreshNotExported() {
        let last = SampleSession.events.last?.seq ?? 0
        let url = "https://api.example.com/refreshed"
        let refresh: [CacheEvent] = [
            CacheEvent(seq: last + 1, time: 90, requestID: 99, kind: .requestStarted(RequestStarted(
                method: "GET", url: url, cacheKey: "GET \(url)", policy: "background", headers: [:]))),
            CacheEvent(seq: last + 2, time: 90.1, requestID: 99, kind: .requestFinished(RequestFinished(
                status: 200, latency: 0.1, bytesFromNetwork: 500, bytesFromCache: 0, outcome: .revalidated, reason: "refreshed",
                background: true))),
        ]
        let export = HARExporter().export(SessionLog(header: SessionLogHeader(startedAt: Self.start, redacted: true), events: SampleSession.events + refresh))
        #expect(export.archive.log.entries.count == 9)
        #expect(!export.archive.log.entries.contains { $0.request.url == url })
    }

    @Test("requests whose start is not in the log are counted, not exported")
    func partialLog() {
        let events = Array(SampleSession.events.dropFirst(3))  // drops request 1's requestStarted
        let export = HARExporter().export(SessionLog(header: SessionLogHeader(startedAt: Self.start, redacted: true), events: events))
        #expect(export.requestsWithoutStart == 1)
        #expect(export.archive.log.entries.count == 8)
        let unfinished = HARExporter().export(SessionLog(header: SessionLogHeader(startedAt: nil, redacted: true), events: Array(SampleSession.events.prefix(4))))
        #expect(unfinished.unfinishedRequests == 1 && unfinished.archive.log.entries.isEmpty)
    }

    @Test("writing to a missing directory is a clear error")
    func writeError() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("nope/out.har")
        #expect(throws: HARError.self) { try HARArchive(log: HARLog(creator: .cachescope, entries: [])).write(to: path) }
        do {
            try HARArchive(log: HARLog(creator: .cachescope, entries: [])).write(to: path)
        } catch {
            #expect(error.description.hasPrefix("\(path): cannot write the HAR ("))
        }
    }
}
