import CacheEvents
import CachingClient
import DemoOrigin
import Foundation
import HTTPCaching
import HTTPTypes
import Testing

/// The exact events of each path a request can take through the client, beyond the miss,
/// hit and 304 of ``ClassicScenarioTests``: a new response to a conditional request, a
/// bypass, stale data served by policy, stale-while-revalidate (the caller's request and the
/// background refresh, a request of its own), stale-if-error, a coalesced follower, a
/// redirect, `only-if-cached` with nothing stored, and failures.
///
/// For each: the kind names in order, `seq` strictly increasing within the request, and the
/// totals `requestFinished` reports — what the dashboard's counters and a session summary
/// are folded from.
@Suite("Event order of every path a request can take", .timeLimit(.minutes(2)))
struct EventOrderTests {
    /// The `requestFinished` values a user reads: status, outcome, bytes, coalesced.
    struct Totals: Equatable, CustomStringConvertible {
        var status: Int
        var outcome: CacheOutcome
        var bytesFromNetwork: Int
        var bytesFromCache: Int
        var coalesced = false

        init(status: Int, outcome: CacheOutcome, network: Int, cache: Int, coalesced: Bool = false) {
            self.status = status
            self.outcome = outcome
            bytesFromNetwork = network
            bytesFromCache = cache
            self.coalesced = coalesced
        }

        init(_ finished: RequestFinished) {
            self.init(
                status: finished.status, outcome: finished.outcome, network: finished.bytesFromNetwork,
                cache: finished.bytesFromCache, coalesced: finished.coalesced)
        }

        var description: String {
            "\(status) \(outcome), \(bytesFromNetwork) B network, \(bytesFromCache) B cache\(coalesced ? ", coalesced" : "")"
        }
    }

    // MARK: Conditional request answered with a new response

    @Test("modified: after the ETag rotated, revalidationSent then modified, the new body counted as network bytes")
    func modifiedAfterRotation() async throws {
        try await Harness.start().runLogged { harness, log in
            let first = try await harness.get("/rotating/10")
            harness.clock.advance(by: 10)
            let second = try await harness.get("/rotating/10")
            #expect(second.outcome == .modified)
            #expect(second.body != first.body)

            let events = await Self.expectSequence(
                ["requestStarted", "lookup", "revalidationSent", "modified", "served", "requestFinished"],
                of: second.requestID, in: log)
            #expect(Self.lookup(events)?.verdict == .stale)
            #expect(Self.payload(events, { if case .modified(let m) = $0 { m } else { nil } })?.status == 200)
            #expect(Self.served(events)?.source == .network)
            #expect(Self.totals(events) == Totals(status: 200, outcome: .modified, network: second.body.count, cache: 0))
        }
    }

    @Test("modified: a stale item another client changed comes back as a new version")
    func modifiedAfterChangeElsewhere() async throws {
        try await Harness.start().runLogged { harness, log in
            let first = try await harness.get("/items/7")
            harness.clock.advance(by: 120)
            try await PolicyMatrixTests.put("/items/7", at: harness.origin)
            let second = try await harness.get("/items/7")
            #expect(second.outcome == .modified)
            #expect(String(decoding: second.body, as: UTF8.self).contains("version 2"))
            #expect(second.response.headerFields[.eTag] != first.response.headerFields[.eTag])

            let events = await Self.expectSequence(
                ["requestStarted", "lookup", "revalidationSent", "modified", "served", "requestFinished"],
                of: second.requestID, in: log)
            let sent = Self.payload(events, { if case .revalidationSent(let s) = $0 { s } else { nil } })
            #expect(sent?.ifNoneMatch == first.response.headerFields[.eTag])
            #expect(sent?.background == false)
            #expect(Self.totals(events) == Totals(status: 200, outcome: .modified, network: second.body.count, cache: 0))
        }
    }

    // MARK: Bypass

    @Test("bypass: the reload policy skips the stored response; lookup says bypass, the body is network bytes")
    func bypassByPolicy() async throws {
        try await Harness.start().runLogged { harness, log in
            _ = try await harness.get("/max-age/60")
            let reload = try await harness.get("/max-age/60", policy: .reloadIgnoringLocalCacheData)
            #expect(reload.outcome == .bypass)

            let events = await Self.expectSequence(
                ["requestStarted", "lookup", "served", "requestFinished"], of: reload.requestID, in: log)
            #expect(Self.started(events)?.policy == "reload")
            #expect(Self.lookup(events)?.verdict == .bypass)
            #expect(Self.served(events)?.source == .network)
            #expect(Self.totals(events) == Totals(status: 200, outcome: .bypass, network: reload.body.count, cache: 0))
            #expect(harness.origin.requestCount(path: "/max-age/60") == 2)
        }
    }

    @Test("bypass: a POST is never looked up in the store")
    func bypassByMethod() async throws {
        try await Harness.start().runLogged { harness, log in
            let post = try await harness.send(.post, "/items/3")
            #expect(post.outcome == .bypass)

            let events = await Self.expectSequence(
                ["requestStarted", "lookup", "served", "requestFinished"], of: post.requestID, in: log)
            #expect(Self.started(events)?.method == "POST")
            #expect(Self.lookup(events)?.verdict == .bypass)
            #expect(Self.totals(events) == Totals(status: 200, outcome: .bypass, network: post.body.count, cache: 0))
        }
    }

    // MARK: Stale served without the origin

    @Test("stale by policy: cache-else-load serves an expired response; no network event, the body is cache bytes")
    func staleByPolicy() async throws {
        try await Harness.start().runLogged { harness, log in
            let first = try await harness.get("/max-age/1")
            harness.clock.advance(by: 5)
            let stale = try await harness.get("/max-age/1", policy: .returnCacheDataElseLoad)
            #expect(stale.outcome == .stale)
            #expect(stale.body == first.body)

            let events = await Self.expectSequence(
                ["requestStarted", "lookup", "served", "requestFinished"], of: stale.requestID, in: log)
            #expect(Self.started(events)?.policy == "cache-else-load")
            let lookup = Self.lookup(events)
            #expect(lookup?.verdict == .stale)
            #expect((lookup?.ttl ?? 0) < 0)
            #expect(Self.served(events)?.source == .cache)
            #expect(Self.totals(events) == Totals(status: 200, outcome: .stale, network: 0, cache: first.body.count))
            #expect(harness.origin.requestCount(path: "/max-age/1") == 1)
        }
    }

    // MARK: stale-while-revalidate

    @Test("stale-while-revalidate: the caller gets stale at once; the refresh is its own request, policy background")
    func staleWhileRevalidate() async throws {
        try await Harness.start().runLogged { harness, log in
            let first = try await harness.get("/swr/1/600")
            harness.clock.advance(by: 5)
            let stale = try await harness.get("/swr/1/600")
            #expect(stale.outcome == .stale)

            // The caller's request never waits for the origin.
            let events = await Self.expectSequence(
                ["requestStarted", "lookup", "served", "requestFinished"], of: stale.requestID, in: log)
            #expect(Self.lookup(events)?.verdict == .stale)
            #expect(Self.served(events)?.source == .cache)
            #expect(Self.totals(events) == Totals(status: 200, outcome: .stale, network: 0, cache: first.body.count))

            // The refresh: a request of its own with policy "background", answered 304.
            let refreshID = try await Self.backgroundRefreshID(in: log)
            #expect(refreshID != stale.requestID)
            #expect(log.all.filter(Self.isRefreshStart).count == 1)
            let refresh = await Self.expectSequence(
                ["requestStarted", "lookup", "revalidationSent", "notModified", "served", "requestFinished"],
                of: refreshID, in: log)
            #expect(Self.started(refresh)?.url == harness.url("/swr/1/600"))
            #expect(Self.lookup(refresh)?.verdict == .stale)
            let sent = Self.payload(refresh, { if case .revalidationSent(let s) = $0 { s } else { nil } })
            #expect(sent?.background == true)
            #expect(sent?.ifNoneMatch == first.response.headerFields[.eTag])
            let finished = try #require(Self.finished(refresh))
            #expect(finished.outcome == .revalidated)
            #expect(finished.status == 200)
            #expect(finished.bytesFromNetwork == 0)
            // It serves nobody: no bytes from the cache, and marked as the cache's own request, so
            // the traffic figures do not count it (or its bytes) as the app's.
            #expect(finished.bytesFromCache == 0)
            #expect(finished.background)
            #expect(Self.finished(events)?.background == false)
            var counters = TrafficCounters()
            for event in log.all { counters.apply(event) }
            #expect(counters.requests == 2 && counters.backgroundRefreshes == 1)
            #expect(counters.bytesFromCache == first.body.count)
            #expect(harness.origin.requestCount(path: "/swr/1/600") == 2)
        }
    }

    @Test("a background refresh the origin never answers still ends: revalidationSent, error, requestFinished")
    func failedBackgroundRefresh() async throws {
        try await Harness.start().runLogged { harness, log in
            _ = try await harness.get("/swr/1/600")
            try await harness.origin.stop()
            harness.clock.advance(by: 5)
            let stale = try await harness.get("/swr/1/600")
            #expect(stale.outcome == .stale)

            let refreshID = try await Self.backgroundRefreshID(in: log)
            let refresh = await Self.expectSequence(
                ["requestStarted", "lookup", "revalidationSent", "error", "requestFinished"], of: refreshID, in: log)
            #expect(Self.errorInfo(refresh)?.message.contains("cannot connect") == true)
            let finished = try #require(Self.finished(refresh))
            #expect(finished.outcome == .error && finished.status == 0 && finished.background)
        }
    }

    // MARK: stale-if-error

    @Test("stale-if-error on a 500: lookup, served from the cache; the caller sees 200 and the stored body")
    func staleIfErrorOn500() async throws {
        try await Harness.start().runLogged { harness, log in
            let first = try await harness.get("/sie/1/600")
            harness.clock.advance(by: 10)
            let fallback = try await harness.get("/sie/1/600")
            #expect(fallback.outcome == .stale)
            #expect(fallback.body == first.body)

            // No validator: a plain request goes out (no revalidationSent), the 500 is not served.
            let events = await Self.expectSequence(
                ["requestStarted", "lookup", "served", "requestFinished"], of: fallback.requestID, in: log)
            // Something was stored, too old and without a validator: a stale verdict with its age.
            let lookup = try #require(Self.lookup(events))
            #expect(lookup.verdict == .stale && lookup.reason.hasSuffix("no validator"))
            #expect(lookup.age.map { $0 >= 10 } == true && lookup.ttl.map { $0 < 0 } == true)
            let served = try #require(Self.served(events))
            #expect(served.source == .cache)
            #expect(served.status == 200)
            #expect(served.reason.hasPrefix("stale-if-error"))
            let finished = try #require(Self.finished(events))
            #expect(finished.status == 200)
            #expect(finished.outcome == .stale)
            #expect(finished.bytesFromCache == first.body.count)
            #expect(harness.origin.requestCount(path: "/sie/1/600") == 2)
            // The 500's body crossed the network although the stored body was served: it counts
            // as network bytes, as it does when the 500 is passed through.
            let passedThrough = try await harness.get("/sie/1/600", policy: .reloadIgnoringLocalCacheData)
            #expect(passedThrough.response.status.code == 500 && !passedThrough.body.isEmpty)
            #expect(finished.bytesFromNetwork == passedThrough.body.count)
        }
    }

    @Test("stale-if-error with the origin down: lookup, served from the cache, no network bytes")
    func staleIfErrorOriginDown() async throws {
        try await Harness.start().runLogged { harness, log in
            let first = try await harness.get("/sie/1/600")
            try await harness.origin.stop()
            harness.clock.advance(by: 10)
            let fallback = try await harness.get("/sie/1/600")
            #expect(fallback.outcome == .stale)

            let events = await Self.expectSequence(
                ["requestStarted", "lookup", "served", "requestFinished"], of: fallback.requestID, in: log)
            #expect(Self.served(events)?.source == .cache)
            #expect(Self.finished(events)?.reason.contains("cannot connect") == true)
            #expect(Self.totals(events) == Totals(status: 200, outcome: .stale, network: 0, cache: first.body.count))
        }
    }

    @Test("stale-if-error asked by the request: a revalidation is sent, never answered, and the stored body served")
    func staleIfErrorAfterFailedRevalidation() async throws {
        try await Harness.start().runLogged { harness, log in
            let first = try await harness.get("/max-age/1")
            try await harness.origin.stop()
            harness.clock.advance(by: 5)
            let fallback = try await harness.get("/max-age/1", headers: [.cacheControl: "stale-if-error=600"])
            #expect(fallback.outcome == .stale)
            #expect(fallback.body == first.body)

            let events = await Self.expectSequence(
                ["requestStarted", "lookup", "revalidationSent", "served", "requestFinished"], of: fallback.requestID, in: log)
            #expect(Self.served(events)?.source == .cache)
            #expect(Self.totals(events) == Totals(status: 200, outcome: .stale, network: 0, cache: first.body.count))
        }
    }

    @Test("stale-if-error after a revalidation answered 503: modified with the 503, then the stored body served")
    func staleIfErrorAfter503() async throws {
        try await Harness.start().runLogged { harness, log in
            let first = try await harness.get("/max-age/1")
            harness.origin.setOutage(true)
            harness.clock.advance(by: 5)
            let fallback = try await harness.get("/max-age/1", headers: [.cacheControl: "stale-if-error=600"])
            #expect(fallback.outcome == .stale)
            #expect(fallback.response.status.code == 200)
            #expect(fallback.body == first.body)

            let events = await Self.expectSequence(
                ["requestStarted", "lookup", "revalidationSent", "modified", "served", "requestFinished"],
                of: fallback.requestID, in: log)
            #expect(Self.payload(events, { if case .modified(let m) = $0 { m } else { nil } })?.status == 503)
            #expect(Self.served(events)?.source == .cache)
            let finished = try #require(Self.finished(events))
            #expect(finished.status == 200)
            #expect(finished.outcome == .stale)
            #expect(finished.bytesFromCache == first.body.count)
            let passedThrough = try await harness.get("/max-age/1", policy: .reloadIgnoringLocalCacheData)
            #expect(passedThrough.response.status.code == 503)
            #expect(finished.bytesFromNetwork == passedThrough.body.count, "the 503's body crossed the network")
        }
    }

    @Test("a revalidation the origin never answers, without stale-if-error: revalidationSent, error, requestFinished")
    func failedRevalidationWithoutStaleIfError() async throws {
        try await Harness.start().runLogged { harness, log in
            _ = try await harness.get("/max-age/1")
            try await harness.origin.stop()
            harness.clock.advance(by: 5)
            await #expect {
                try await harness.get("/max-age/1")
            } throws: { error in
                guard case .transport = error as? CachingClientError else { return false }
                return true
            }

            let id = try #require(await Self.requestID(startedFor: harness.url("/max-age/1"), occurrence: 1, in: log))
            let events = await Self.expectSequence(
                ["requestStarted", "lookup", "revalidationSent", "error", "requestFinished"], of: id, in: log)
            #expect(Self.lookup(events)?.verdict == .stale)
            #expect(Self.totals(events) == Totals(status: 0, outcome: .error, network: 0, cache: 0))
        }
    }

    // MARK: Coalescing

    @Test("coalesced follower: lookup, coalesced with the leader's ID, served; its bytes are counted once, by the leader")
    func coalescedFollower() async throws {
        try await Harness.start().runLogged { harness, log in
            let (leader, follower) = try await harness.leaderAndFollower("/max-age/60")
            try #require(!leader.coalesced && follower.coalesced, "the second request follows the first")

            let followerEvents = await Self.expectSequence(
                ["requestStarted", "lookup", "coalesced", "served", "requestFinished"], of: follower.requestID, in: log)
            #expect(Self.lookup(followerEvents)?.verdict == .miss)
            #expect(Self.payload(followerEvents, { if case .coalesced(let c) = $0 { c } else { nil } })?.leaderID == leader.requestID)
            #expect(Self.totals(followerEvents) == Totals(status: 200, outcome: .miss, network: 0, cache: 0, coalesced: true))

            let leaderEvents = await Self.expectSequence(
                ["requestStarted", "lookup", "served", "requestFinished"], of: leader.requestID, in: log)
            #expect(Self.totals(leaderEvents) == Totals(status: 200, outcome: .miss, network: leader.body.count, cache: 0))
            #expect(harness.origin.requestCount(path: "/max-age/60") == 1)
        }
    }

    // MARK: Redirects

    @Test("a redirect is two requests in the stream: the 301 hop, then its target")
    func redirectHops() async throws {
        try await Harness.start().runLogged { harness, log in
            let result = try await harness.get("/redirect/301/60")
            #expect(result.response.status.code == 200)

            let target = await Self.expectSequence(
                ["requestStarted", "lookup", "served", "requestFinished"], of: result.requestID, in: log)
            #expect(Self.started(target)?.url == harness.url("/max-age/60"))
            #expect(Self.totals(target) == Totals(status: 200, outcome: .miss, network: result.body.count, cache: 0))

            let hopID = try #require(
                log.all.first { event in
                    if case .requestStarted(let started) = event.kind { started.url == harness.url("/redirect/301/60") } else { false }
                }?.requestID)
            #expect(hopID < result.requestID)
            let hop = await Self.expectSequence(["requestStarted", "lookup", "served", "requestFinished"], of: hopID, in: log)
            let finished = try #require(Self.finished(hop))
            #expect(finished.status == 301)
            #expect(finished.outcome == .miss)
            #expect(finished.bytesFromNetwork > 0)
        }
    }

    // MARK: Nothing usable and no network

    @Test("only-if-cached with nothing stored: lookup miss, then a 504 served with no bytes and outcome error")
    func onlyIfCached504() async throws {
        try await Harness.start().runLogged { harness, log in
            let result = try await harness.get("/max-age/60", headers: [.cacheControl: "only-if-cached"])
            #expect(result.response.status.code == 504)

            let events = await Self.expectSequence(
                ["requestStarted", "lookup", "served", "requestFinished"], of: result.requestID, in: log)
            #expect(Self.lookup(events)?.verdict == .miss)
            #expect(Self.served(events)?.status == 504)
            #expect(Self.totals(events) == Totals(status: 504, outcome: .error, network: 0, cache: 0))
            #expect(harness.origin.totalRequestCount() == 0)
        }
    }

    /// Why a request with nothing stored fails: the policy forbids the network, or the origin is down.
    enum NothingStoredFailure: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case cacheOnly = "not in the cache"
        case originDown = "cannot connect"

        var testDescription: String {
            switch self {
            case .cacheOnly: "cache-only: the call throws notCached"
            case .originDown: "a transport error: the call throws"
            }
        }

        /// Whether `error` is the one the call throws.
        func isThrown(_ error: any Error) -> Bool {
            switch (self, error as? CachingClientError) {
            case (.cacheOnly, .notCached?), (.originDown, .transport?): true
            default: false
            }
        }
    }

    @Test("nothing stored and no network: lookup miss, error, requestFinished with status 0", arguments: NothingStoredFailure.allCases)
    func nothingStoredFails(failure: NothingStoredFailure) async throws {
        try await Harness.start().runLogged { harness, log in
            if failure == .originDown { try await harness.origin.stop() }
            await #expect {
                try await harness.get("/max-age/60", policy: failure == .cacheOnly ? .returnCacheDataDontLoad : nil)
            } throws: { error in
                failure.isThrown(error)
            }

            let id = try #require(await Self.requestID(startedFor: harness.url("/max-age/60"), in: log))
            let events = await Self.expectSequence(["requestStarted", "lookup", "error", "requestFinished"], of: id, in: log)
            #expect(Self.lookup(events)?.verdict == .miss)
            let message = Self.errorInfo(events)?.message
            #expect(message?.contains(failure.rawValue) == true)
            #expect(Self.totals(events) == Totals(status: 0, outcome: .error, network: 0, cache: 0))
            #expect(harness.origin.totalRequestCount() == 0)
        }
    }

    // MARK: The bytes of the classic paths

    @Test("miss, hit and revalidated report the body as network, cache and cache bytes")
    func classicTotals() async throws {
        try await Harness.start().runLogged { harness, log in
            let miss = try await harness.get("/max-age/2")
            let hit = try await harness.get("/max-age/2")
            harness.clock.advance(by: 5)
            let revalidated = try await harness.get("/max-age/2")
            let size = miss.body.count
            #expect(size > 0)

            let missEvents = await Self.expectSequence(
                ["requestStarted", "lookup", "served", "requestFinished"], of: miss.requestID, in: log)
            #expect(Self.totals(missEvents) == Totals(status: 200, outcome: .miss, network: size, cache: 0))
            let hitEvents = await Self.expectSequence(
                ["requestStarted", "lookup", "served", "requestFinished"], of: hit.requestID, in: log)
            #expect(Self.totals(hitEvents) == Totals(status: 200, outcome: .hit, network: 0, cache: size))
            let revalidatedEvents = await Self.expectSequence(
                ["requestStarted", "lookup", "revalidationSent", "notModified", "served", "requestFinished"],
                of: revalidated.requestID, in: log)
            #expect(Self.served(revalidatedEvents)?.source == .cache)
            #expect(Self.totals(revalidatedEvents) == Totals(status: 200, outcome: .revalidated, network: 0, cache: size))
        }
    }

    // MARK: Helpers

    /// Whether an event starts a background refresh: a request of its own, policy "background".
    static let isRefreshStart: @Sendable (CacheEvent) -> Bool = { event in
        if case .requestStarted(let started) = event.kind { started.policy == "background" } else { false }
    }

    /// Waits for the (first) background refresh to finish and returns its request ID.
    static func backgroundRefreshID(in log: EventLog, sourceLocation: SourceLocation = #_sourceLocation) async throws -> UInt64 {
        #expect(
            await log.wait { events in
                guard let id = events.first(where: isRefreshStart)?.requestID else { return false }
                return events.contains { $0.requestID == id && $0.kind.name == "requestFinished" }
            }, sourceLocation: sourceLocation)
        return try #require(log.all.first(where: isRefreshStart)?.requestID, sourceLocation: sourceLocation)
    }

    /// Waits for request `id` to finish, expects its kind names to be `kinds` and its `seq`
    /// to increase strictly, and returns its events.
    static func expectSequence(
        _ kinds: [String], of id: UInt64, in log: EventLog, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> [CacheEvent] {
        let finished = await log.wait { $0.contains { $0.requestID == id && $0.kind.name == "requestFinished" } }
        #expect(finished, "request \(id) never finished", sourceLocation: sourceLocation)
        #expect(log.kinds(of: id) == kinds, sourceLocation: sourceLocation)
        let events = log.all.filter { $0.requestID == id }
        let seqs = events.map(\.seq)
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 }, "seq \(seqs)", sourceLocation: sourceLocation)
        return events
    }

    /// The ID of the request started for `url` (the first, or the `occurrence`-th after it),
    /// once its `requestFinished` has arrived.
    static func requestID(startedFor url: String, occurrence: Int = 0, in log: EventLog) async -> UInt64? {
        let started: @Sendable ([CacheEvent]) -> UInt64? = { events in
            let starts = events.filter { event in
                if case .requestStarted(let s) = event.kind { s.url == url } else { false }
            }
            return starts.count > occurrence ? starts[occurrence].requestID : nil
        }
        _ = await log.wait { events in
            guard let id = started(events) else { return false }
            return events.contains { $0.requestID == id && $0.kind.name == "requestFinished" }
        }
        return started(log.all)
    }

    static func payload<T>(_ events: [CacheEvent], _ extract: (CacheEventKind) -> T?) -> T? {
        for event in events {
            if let value = extract(event.kind) { return value }
        }
        return nil
    }

    static func started(_ events: [CacheEvent]) -> RequestStarted? {
        payload(events) { if case .requestStarted(let s) = $0 { s } else { nil } }
    }

    static func lookup(_ events: [CacheEvent]) -> Lookup? {
        payload(events) { if case .lookup(let l) = $0 { l } else { nil } }
    }

    static func served(_ events: [CacheEvent]) -> Served? {
        payload(events) { if case .served(let s) = $0 { s } else { nil } }
    }

    static func finished(_ events: [CacheEvent]) -> RequestFinished? {
        payload(events) { if case .requestFinished(let f) = $0 { f } else { nil } }
    }

    static func errorInfo(_ events: [CacheEvent]) -> ErrorInfo? {
        payload(events) { (kind: CacheEventKind) -> ErrorInfo? in if case .error(let e) = kind { e } else { nil } }
    }

    static func totals(_ events: [CacheEvent]) -> Totals? {
        finished(events).map(Totals.init)
    }
}
