import HTTPTypes
import CacheStore
import CacheEvents
import SessionLog
import TerminalUI
import HTTPCaching
import Testing
@testable import Dashboard

@Suite("Folding events into the traffic model")
struct TrafficModelTests {
    @Test("Counts, ratios and bytes are TrafficCounters' own: the header and --summary agree")
    func countersAreTrafficCounters() {
        let model = TrafficModel(folding: SampleSession.events)
        let counters = TrafficCounters(folding: SampleSession.events)
        #expect(model.counters == counters)
        #expect(model.counters.requests == 10)
        #expect(model.counters.count(.miss) == 4)
        #expect(model.counters.hitRatio == 3.0 / 9.0)
        #expect(model.counters.bytesFromCache == 2048 + 1024 + 900)
    }

    @Test("A request's events build one record: lookup, revalidation, 304, served, finished")
    func requestRecord() throws {
        let model = TrafficModel(folding: SampleSession.events)
        let serial = try #require((0...model.requests.newestSerial!).first { model.requests[serial: $0]?.id == 3 })
        let record = try #require(model.requests[serial: serial])
        #expect(record.url == SampleSession.origin + "/no-cache?id=3")
        #expect(record.lookup?.verdict == .stale)
        #expect(record.revalidation?.ifNoneMatch == "\"n3\"")
        #expect(record.notModified?.freshened == 1)
        #expect(record.outcome == .revalidated)
        #expect(record.reason == "304 (no-cache)")
        #expect(record.finished?.latency == 0.008)
        #expect(model.requests.openSerial(of: 3) == nil, "a finished request is no longer open")
    }

    @Test("A request still in flight stays open and has no outcome")
    func inFlight() throws {
        let model = TrafficModel(folding: SampleSession.events)
        let newest = try #require(model.requests[serial: model.requests.newestSerial!])
        #expect(newest.id == 11)
        #expect(newest.outcome == nil)
        #expect(!newest.isFinished)
        #expect(model.requests.openCount == 1)
    }

    @Test("stored events without a request ID are credited to the open request for the same key")
    func storedAttachesToRequest() throws {
        let model = TrafficModel(folding: SampleSession.events)
        let serial = try #require((0...model.requests.newestSerial!).first { model.requests[serial: $0]?.id == 4 })
        #expect(model.requests[serial: serial]?.stored?.tier == .both)
        #expect(model.requests[serial: serial]?.stored?.ttl == 5)
    }

    @Test("A finished request whose start was never seen still shows up as a row")
    func finishWithoutStart() throws {
        var model = TrafficModel()
        model.apply(CacheEvent(seq: 1, time: 3, requestID: 77, kind: .requestFinished(RequestFinished(
            status: 200, latency: 0.5, bytesFromNetwork: 10, bytesFromCache: 0, outcome: .miss, reason: "not in cache"))))
        let record = try #require(model.requests[serial: 0])
        #expect(record.id == 77)
        #expect(record.url == "(start not seen)")
        #expect(record.started == 2.5)
        #expect(model.counters.requests == 1)
    }

    @Test("Entries: the snapshot, stores, promotion, partial and full evictions, and the hit counts")
    func entries() throws {
        let model = TrafficModel(folding: SampleSession.events)
        let table = model.entries
        #expect(table.count == 5)
        #expect(table[EntryRef(key: SampleSession.key("/no-cache?id=3"))] == nil, "evicted from both tiers")
        let hot = try #require(table[EntryRef(key: SampleSession.key("/max-age/60?id=1"))])
        #expect(hot.hits == 4, "3 from the snapshot plus the hit at t=1")
        #expect(hot.lastAccess == 1.0004)
        #expect(hot.ttl(at: 12) == 38, "50 s of freshness at t=0")
        #expect(hot.age(at: 12) == 22, "10 s old at t=0")
        let rotating = try #require(table[EntryRef(key: SampleSession.key("/rotating"))])
        #expect(rotating.tier == .both)
        #expect(rotating.etag == "\"r2\"")
        #expect(rotating.ttlState(at: 12) == .expired)

        var partial = model
        let ref = EntryRef(key: SampleSession.key("/immutable/app.js"))
        partial.apply(CacheEvent(seq: 100, time: 12, kind: .evicted(Evicted(entry: ref, reason: .capacity, tier: .memory, size: 40960))))
        #expect(partial.entries[ref]?.tier == .disk, "leaving memory keeps the disk copy")
        partial.apply(CacheEvent(seq: 101, time: 12.5, kind: .promoted(ref)))
        #expect(partial.entries[ref]?.tier == .both)
        partial.apply(CacheEvent(seq: 102, time: 13, kind: .evicted(Evicted(entry: ref, reason: .purged, tier: .both, size: 40960))))
        #expect(partial.entries[ref] == nil)
        #expect(partial.entries.count == 4)
    }

    @Test("A hit is credited to the Vary variant the request's headers select")
    func variantHits() {
        var model = TrafficModel()
        let key = SampleSession.key("/vary/lang?id=1")
        var seq: UInt64 = 0
        func add(_ time: Double, _ id: UInt64?, _ kind: CacheEventKind) {
            seq += 1
            model.apply(CacheEvent(seq: seq, time: time, requestID: id, kind: kind))
        }
        for language in ["fr", "en"] {
            add(0, nil, .stored(Stored(entry: EntryRef(key: key, variant: "accept-language=\"\(language)\""), tier: .memory,
                                       size: 10, ttl: 60, etag: nil, lastModified: nil, status: 200)))
        }
        add(1, 5, .requestStarted(RequestStarted(method: "GET", url: SampleSession.origin + "/vary/lang?id=1", cacheKey: key,
                                                 policy: "protocol", headers: HTTPFields([testField("accept-language", value: "EN")]))))
        add(1, 5, .served(Served(source: .cache, status: 200, bytes: 10, outcome: .hit, reason: "max-age=60")))
        #expect(model.entries[EntryRef(key: key, variant: "accept-language=\"en\"")]?.hits == 1)
        #expect(model.entries[EntryRef(key: key, variant: "accept-language=\"fr\"")]?.hits == 0)
    }

    @Test("A stored response's age counts the origin's Age: AGE starts there and the TTL bar spans the whole lifetime")
    func storedAgeCounts() throws {
        var model = TrafficModel()
        let ref = EntryRef(key: "GET http://127.0.0.1:8080/aged")
        let stored = Stored(entry: ref, tier: .both, size: 100, ttl: 200, etag: nil, lastModified: nil, status: 200, age: 100)
        model.apply(CacheEvent(seq: 1, time: 5, requestID: nil, kind: .stored(stored)))
        let entry = try #require(model.entries[ref])
        #expect(entry.age(at: 15) == 110)
        #expect(entry.ttl(at: 15) == 190)
        #expect(entry.lifetime == 300)
        // A log from before the field: the age starts at 0, as it did.
        var old = stored
        old.age = nil
        model.apply(CacheEvent(seq: 2, time: 20, requestID: nil, kind: .stored(old)))
        #expect(model.entries[ref]?.age(at: 25) == 5)
    }

    @Test("A 304 restarts the TTL of the entry it freshened")
    func notModifiedFreshens() {
        var model = TrafficModel(folding: SampleSession.events)
        let key = SampleSession.key("/max-age/60?id=1")
        let events: [CacheEventKind] = [
            .requestStarted(RequestStarted(method: "GET", url: SampleSession.origin + "/max-age/60?id=1", cacheKey: key,
                                           policy: "refresh", headers: [:])),
            .notModified(NotModified(freshened: 1, ttl: 60)),
        ]
        for (offset, kind) in events.enumerated() {
            model.apply(CacheEvent(seq: UInt64(500 + offset), time: 20, requestID: 99, kind: kind))
        }
        let entry = model.entries[EntryRef(key: key)]
        #expect(entry?.ttl(at: 30) == 50)
        #expect(entry?.age(at: 30) == 10)
    }

    @Test("Purges: a key's variants, then everything")
    func purges() {
        var model = TrafficModel(folding: SampleSession.events)
        model.apply(CacheEvent(seq: 900, time: 12, kind: .purged(Purged(scope: PurgeScope(word: "key", key: SampleSession.key("/rotating"), variant: nil, since: nil), count: 1))))
        #expect(model.entries.count == 4)
        let purgedBefore = model.counters.evictions[.purged] ?? 0
        model.apply(CacheEvent(seq: 901, time: 12, kind: .purged(Purged(scope: .all, count: 4))))
        #expect(model.entries.isEmpty)
        // One event for the whole store, counted as the 4 evictions it was (as the metrics count
        // it); the summary and Stats left it out.
        #expect(model.counters.evictions[.purged] == purgedBefore + 4)
    }

    @Test("Rates are per second over the last 10 s of event time and fall to zero when traffic stops")
    func rates() {
        var model = TrafficModel()
        for index in 0..<50 {   // 5 requests a second for 10 s
            let time = Double(index) * 0.2
            model.apply(CacheEvent(seq: UInt64(index + 1), time: time, requestID: UInt64(index), kind: .requestFinished(
                RequestFinished(status: 200, latency: 0.01, bytesFromNetwork: 0, bytesFromCache: 0, outcome: .hit, reason: ""))))
        }
        #expect(abs(model.requestRate(at: 9.9) - 5) < 0.51)
        #expect(model.requestRate(at: 30) == 0)
        model.apply(CacheEvent(seq: 100, time: 10, kind: .evicted(Evicted(
            entry: EntryRef(key: "GET x"), reason: .expired, tier: .both, size: 1))))
        #expect(model.evictionRate(.expired, at: 10) == 0.1)
        #expect(model.evictionRate(.capacity, at: 10) == 0)
    }

    @Test("Young sessions divide by their age, not by the whole window")
    func youngRate() {
        var model = TrafficModel()
        for index in 0..<4 {
            model.apply(CacheEvent(seq: UInt64(index + 1), time: 0.5 * Double(index), requestID: UInt64(index), kind: .requestFinished(
                RequestFinished(status: 200, latency: 0.01, bytesFromNetwork: 0, bytesFromCache: 0, outcome: .miss, reason: ""))))
        }
        #expect(model.requestRate(at: 2) == 2, "4 requests in the first 2 s")
    }

    @Test("The fold depends only on the events: folding twice gives equal requests, entries and counters")
    func deterministic() {
        let first = TrafficModel(folding: SampleSession.events)
        let second = TrafficModel(folding: SampleSession.events)
        #expect(first.requests == second.requests)
        #expect(first.entries == second.entries)
        #expect(first.latency == second.latency)
    }
}

@Suite("Purges from other instances")
struct SharedPurgeFoldingTests {
    @Test("A purge that came through the shared tier is shown in Stats with the instance it came from")
    func sharedPurgeShown() throws {
        let key = "GET https://example.com/a"
        let events = [
            CacheEvent(seq: 1, time: 1, kind: .purged(Purged(scope: .all, count: 3))),
            CacheEvent(seq: 2, time: 2.5, kind: .purged(Purged(scope: .key(try #require(CacheKey(parsing: key))), count: 1, origin: "web-2:41"))),
        ]
        let model = TrafficModel(folding: events)
        #expect(model.lastSharedPurge == SharedPurgeNote(origin: "web-2:41", key: key, count: 1, time: 2.5))
        let text = StatsContent.lines(model, width: 120, now: 3, style: .blocks, chartRows: 8).map { $0.map(\.text).joined() }
        #expect(text.contains { $0.contains("shared purge") && $0.contains("from web-2:41: \(key), 1 entry dropped here") })

        let local = TrafficModel(folding: [events[0]])
        #expect(local.lastSharedPurge == nil, "a purge of this process's own is not a shared one")
    }
}
