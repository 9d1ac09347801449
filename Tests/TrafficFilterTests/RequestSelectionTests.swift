import CacheEvents
import CacheStore
import HTTPCaching
import HTTPTypes
import Testing
import TrafficFilter

@Suite("Whole requests selected from events")
struct RequestSelectionTests {
    /// Two interleaved requests — 1 a miss that is stored, 2 a hit — with store events between.
    static let events: [CacheEvent] = {
        var seq: UInt64 = 0
        func event(_ request: UInt64?, _ kind: CacheEventKind) -> CacheEvent {
            seq += 1
            return CacheEvent(seq: seq, time: Double(seq) / 10, requestID: request, kind: kind)
        }
        let stats = StoreStats(memoryUsed: 0, memoryCapacity: 1024, diskUsed: 0, diskCapacity: 0, entryCount: 0)
        return [
            event(nil, .storeStats(stats)),
            event(1, .requestStarted(RequestStarted(
                method: "GET", url: "http://o/a", cacheKey: "GET http://o/a", policy: "protocol", headers: [:]))),
            event(2, .requestStarted(RequestStarted(
                method: "GET", url: "http://o/b", cacheKey: "GET http://o/b", policy: "protocol", headers: [.accept: "application/json"]))),
            event(1, .lookup(Lookup(verdict: .miss, reason: "not in cache"))),
            event(2, .lookup(Lookup(verdict: .fresh, reason: "max-age=60", age: 1, ttl: 59))),
            event(nil, .evicted(Evicted(entry: EntryRef(key: "GET http://o/z"), reason: .capacity, tier: .memory, size: 9))),
            event(2, .served(Served(source: .cache, status: 200, bytes: 5, outcome: .hit, reason: "max-age=60", age: 1, ttl: 59))),
            event(1, .served(Served(source: .network, status: 200, bytes: 7, outcome: .miss, reason: "not in cache", ttl: 60))),
            event(nil, .stored(Stored(entry: EntryRef(key: "GET http://o/a"), tier: .both, size: 90, ttl: 60, etag: nil,
                                      lastModified: nil, status: 200))),
            event(2, .requestFinished(RequestFinished(
                status: 200, latency: 0.1, bytesFromNetwork: 0, bytesFromCache: 5, outcome: .hit, reason: "max-age=60"))),
            event(nil, .storeStats(stats)),
            event(1, .requestFinished(RequestFinished(
                status: 200, latency: 0.2, bytesFromNetwork: 7, bytesFromCache: 0, outcome: .miss, reason: "not in cache"))),
            event(nil, .command(CommandInfo(name: "purgeAll"))),
        ]
    }()

    static func seqs(_ events: [CacheEvent]) -> [UInt64] { events.map(\.seq) }

    @Test("a matching request keeps all its events (its stored event too), in order, with the store's events")
    func keepsWholeRequests() throws {
        let kept = RequestSelection.select(Self.events, filter: try Filter("outcome:miss"))
        #expect(Self.seqs(kept) == [1, 2, 4, 6, 8, 9, 11, 12, 13])
    }

    @Test("a fleet's instances number their requests alike: each instance's request 1 is decided on its own",
          arguments: [true, false])  // the whole-array path and the one-at-a-time path
    func fleetRequestIDs(wholeArray: Bool) throws {
        // The sample's requests 1 and 2 from instance 0, and instance 1's own requests 1 and 2
        // (the same events, interleaved after them), whose URLs are on another host.
        let other: [CacheEvent] = Self.events.map { event in
            var copy = event
            copy.seq += 100
            copy.instance = 1
            if case .requestStarted(var started) = event.kind {
                started.url = "http://p/" + started.url.dropFirst("http://o/".count)
                copy.kind = .requestStarted(started)
            }
            return copy
        }
        let all = zip(Self.events, other).flatMap { [$0, $1] }
        let filter = try Filter("url:o/a")
        var kept: [CacheEvent]
        if wholeArray {
            kept = RequestSelection.select(all, filter: filter)
        } else {
            var selection = RequestSelection(filter: filter)
            kept = all.flatMap { selection.select($0) } + selection.finish()
        }
        let requests = kept.filter { $0.requestID != nil }
        #expect(!requests.isEmpty)
        #expect(requests.allSatisfy { $0.instance == 0 && $0.requestID == 1 }, "\(requests.map { ($0.instance, $0.requestID) })")
    }

    @Test("a request that does not match leaves nothing behind, its stored event neither")
    func dropsWholeRequests() throws {
        let kept = RequestSelection.select(Self.events, filter: try Filter("outcome:hit"))
        #expect(Self.seqs(kept) == [1, 3, 5, 6, 7, 10, 11, 13])
    }

    @Test("events come out as soon as every request before them is decided")
    func streaming() throws {
        var selection = RequestSelection(filter: try Filter("url:/b"))
        var releases: [[UInt64]] = []
        for event in Self.events { releases.append(Self.seqs(selection.select(event))) }
        #expect(releases[0] == [1])                  // nothing waits: at once
        #expect(releases[1] == [])                   // request 1 undecided: everything waits
        #expect(releases[9] == [])                   // request 2 decided, but 1 is before it
        #expect(releases[11] == [3, 5, 6, 7, 10, 11]) // request 1 decided (dropped): the rest flows
        #expect(releases[12] == [13])
        #expect(selection.finish().isEmpty)
    }

    @Test("unfinished requests are decided at the end as they stand")
    func unfinished() throws {
        let cut = Array(Self.events.prefix(8))
        let kept = RequestSelection.select(cut, filter: try Filter("outcome:miss"))
        #expect(Self.seqs(kept) == [1, 2, 4, 6, 8])
    }

    @Test("at most maximumHeld events wait: then the oldest request is decided as it stands")
    func bounded() throws {
        var selection = RequestSelection(filter: try Filter("url:/a"), maximumHeld: 2)
        var kept: [UInt64] = []
        for event in Self.events { kept += Self.seqs(selection.select(event)) }
        kept += Self.seqs(selection.finish())
        #expect(kept.first == 1)
        #expect(kept == kept.sorted())
        #expect(kept.contains(2) && !kept.contains(3))
    }

    /// Every request field, so the whole-array selection (which reads requests where their
    /// events lie) is checked against the streaming one (which assembles them) field by field.
    static let fieldFilters = [
        "outcome:miss", "outcome:hit", "url:/b", "!url:/a", "status>=500", "reason:\"not in cache\"", "ttl>30",
        "age>0", "size>5", "method:GET & size<6", "!bg", "h:accept~json", "host:o", "url~\"/[ab]$\"",
    ]

    @Test("selecting from a whole array keeps exactly what feeding the events one by one keeps",
          arguments: fieldFilters, [UInt64(0), 1 << 40])
    func wholeArrayMatchesStreaming(_ text: String, idBase: UInt64) throws {
        // Three rounds of the two requests with new IDs (small ones, or ones too large to index
        // an array by), and a late event of a finished request.
        var events: [CacheEvent] = []
        for round in UInt64(0)..<3 {
            for event in Self.events {
                let id = event.requestID.map { idBase + $0 + 10 * round }
                events.append(CacheEvent(seq: UInt64(events.count + 1), time: event.time, requestID: id, kind: event.kind))
            }
        }
        events.append(CacheEvent(
            seq: UInt64(events.count + 1), time: 9, requestID: idBase + 11, kind: .lookup(Lookup(verdict: .miss, reason: "late"))))
        let filter = try Filter(text)
        var selection = RequestSelection(filter: filter)
        var streamed: [UInt64] = []
        for event in events { streamed += Self.seqs(selection.select(event)) }
        streamed += Self.seqs(selection.finish())
        #expect(Self.seqs(RequestSelection.select(events, filter: filter)) == streamed)
    }

    /// Two open requests for one key, a repeated event kind, and a request whose start was
    /// never seen: the cases where assembling a request can go wrong.
    static let awkward: [CacheEvent] = {
        var seq: UInt64 = 0
        func event(_ request: UInt64?, _ kind: CacheEventKind) -> CacheEvent {
            seq += 1
            return CacheEvent(seq: seq, time: Double(seq), requestID: request, kind: kind)
        }
        func start(_ path: String) -> CacheEventKind {
            .requestStarted(RequestStarted(method: "GET", url: "http://o/\(path)", cacheKey: "GET http://o/k", policy: "protocol", headers: [:]))
        }
        return [
            event(5, start("five")),                                                  // 1
            event(6, start("six")),                                                   // 2
            event(nil, .stored(Stored(entry: EntryRef(key: "GET http://o/k"), tier: .memory, size: 9, ttl: 60, etag: nil,
                                      lastModified: nil, status: 200))),              // 3: the newest open request's, 6
            event(5, .lookup(Lookup(verdict: .miss, reason: "first"))),              // 4
            event(5, .lookup(Lookup(verdict: .miss, reason: "second"))),             // 5: the later lookup counts
            event(7, .lookup(Lookup(verdict: .miss, reason: "headless"))),           // 6: a request with no start
            event(6, .requestFinished(RequestFinished(
                status: 200, latency: 0.1, bytesFromNetwork: 9, bytesFromCache: 0, outcome: .miss, reason: "not in cache"))),  // 7
        ]
    }()

    @Test("the newest open request owns a stored event, the latest event of a kind counts, a request without a start is still one",
          arguments: [
              (#"url:/six"#, [UInt64(2), 3, 7]), (#"url:/five"#, [1, 4, 5]), (#"reason:second"#, [1, 4, 5]), (#"reason:first"#, []),
              (#"!method:GET"#, [6]), (#"reason:headless & !url:o"#, [6]),
          ])
    func awkwardRequests(text: String, expected: [UInt64]) throws {
        let filter = try Filter(text)
        var selection = RequestSelection(filter: filter)
        var streamed: [UInt64] = []
        for event in Self.awkward { streamed += Self.seqs(selection.select(event)) }
        streamed += Self.seqs(selection.finish())
        #expect(Self.seqs(RequestSelection.select(Self.awkward, filter: filter)) == expected)
        #expect(streamed == expected)
    }

    @Test("an assembled request answers every request field")
    func assembled() throws {
        var request = EventRequest()
        for event in Self.events where event.requestID == 1 { request.apply(event.kind) }
        #expect(try Filter("outcome:miss & status:200 & method:GET & host:o & url:/a & size:7 & ttl:60 & !bg").matches(request))
        #expect(try !Filter("tier:both").matches(request))
    }
}
