import CacheEvents
import CachingClient
import DemoOrigin
import Foundation
import HTTPCaching
import HTTPTypes
import Testing

/// What an app meets at the edges of the client's API (a hunt of 27 November 2026): a second
/// shutdown, a subscription after it, a cache-only request that cannot be cached, a refresh
/// that fails or has nothing to refresh.
@Suite("Client API edges", .timeLimit(.minutes(2)))
struct ClientEdgeTests {
    @Test("shutdown twice: the second returns at once instead of throwing the transport's 'already shut down'")
    func shutdownTwice() async throws {
        let harness = try await Harness.start()
        try await harness.client.shutdown()
        try await harness.client.shutdown()
        try await harness.stop()
    }

    @Test("a subscription made after shutdown ends after its snapshot instead of waiting for ever")
    func subscribeAfterShutdown() async throws {
        let harness = try await Harness.start()
        try await harness.client.shutdown()
        let subscription = await harness.client.subscribe()
        let count = try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask { await subscription.reduce(0) { count, _ in count + 1 } }
            group.addTask {
                try await Task.sleep(for: .seconds(5))
                throw CancellationError()
            }
            defer { group.cancelAll() }
            return try #require(await group.next())
        }
        #expect(count == 2, "storeStats and entries")
        try await harness.stop()
    }

    @Test("a POST that may not use the network is never sent: cache-only throws notCached, only-if-cached gets 504")
    func unsafeMethodOffline() async throws {
        try await Harness.start().run { harness in
            let post = try #require(CachingClient.request(url: harness.url("/items/3"), method: .post))
            await #expect(throws: CachingClientError.self) {
                try await harness.client.data(for: post, body: Data("x".utf8), policy: .returnCacheDataDontLoad)
            }
            var onlyIfCached = post
            onlyIfCached.headerFields[.cacheControl] = "only-if-cached"
            let answer = try await harness.client.data(for: onlyIfCached, body: Data("x".utf8))
            #expect(answer.response.status.code == 504)
            #expect(!answer.fromNetwork)
            #expect(harness.origin.requestCount(path: "/items/3") == 0, "nothing reached the origin")
        }
    }

    @Test("a refresh that fails ends with error, then requestFinished, as any failing request; one of a key not stored says so")
    func refreshFailures() async throws {
        try await Harness.start().runLogged { harness, log in
            _ = try await harness.get("/max-age/60")
            let key = try #require(CacheKey(method: "GET", uri: harness.url("/max-age/60")))
            try await harness.origin.stop()
            await #expect(throws: CachingClientError.self) { try await harness.client.refresh(key) }
            let finished = await log.wait { events in
                events.contains { if case .requestFinished(let done) = $0.kind { done.outcome == .error } else { false } }
            }
            #expect(finished)
            let kinds = log.all.map(\.kind)
            let errorIndex = kinds.lastIndex { if case .error = $0 { true } else { false } }
            let finishedIndex = kinds.lastIndex { if case .requestFinished = $0 { true } else { false } }
            #expect(errorIndex != nil && finishedIndex != nil && errorIndex! < finishedIndex!, "error before requestFinished")

            let other = try #require(CacheKey(method: "GET", uri: harness.url("/max-age/61")))
            await #expect {
                try await harness.client.refresh(other)
            } throws: { error in
                "\(error)".contains("is not in the cache: there is nothing to revalidate")
            }
        }
    }
}

@Suite("Background refreshes: what a HEAD starts", .timeLimit(.minutes(2)))
struct HeadRefreshTests {
    /// The refresh was sent as a HEAD, whose answer has no body to store: the entry stayed
    /// stale, and every later request refreshed it again.
    @Test("a HEAD that finds a stale-while-revalidate entry refreshes it with a GET, after which a GET is a fresh hit")
    func headRefreshesWithGet() async throws {
        try await Harness.start().runLogged { harness, log in
            _ = try await harness.get("/swr/1/60")
            harness.clock.advance(by: 3)
            let head = try #require(CachingClient.request(url: harness.url("/swr/1/60"), method: .head))
            let answer = try await harness.client.data(for: head)
            #expect(answer.outcome == .stale)
            #expect(await harness.client.finishBackgroundRefreshes(within: .seconds(5)))
            let after = try await harness.get("/swr/1/60")
            #expect(after.outcome == .hit, "refreshed by the background GET: \(after.reason)")
            func backgroundMethods(_ events: [CacheEvent]) -> [String] {
                events.compactMap { event -> String? in
                    if case .requestStarted(let started) = event.kind, started.policy == RequestStarted.backgroundPolicy { return started.method }
                    return nil
                }
            }
            _ = await log.wait { !backgroundMethods($0).isEmpty }
            #expect(backgroundMethods(log.all) == ["GET"])
        }
    }
}

@Suite("Shutdown with requests in flight", .timeLimit(.minutes(2)))
struct ShutdownInFlightTests {
    /// They failed as `cannot connect to …` (the transport's `cancelled`), an origin failure.
    @Test("a request cut off by shutdown() fails with shutDown, not as a connection failure")
    func inFlightRequestSaysShutDown() async throws {
        let harness = try await Harness.start()
        let client = harness.client
        let gate = harness.hold("/max-age/60")
        let url = harness.url("/max-age/60")
        let request = Task { try await client.data(from: url) }
        try await harness.waitForArrivals(1, at: gate)
        try await client.shutdown()
        defer { gate.open() }
        await #expect {
            _ = try await request.value
        } throws: { error in
            guard case .shutDown = error as? CachingClientError else { return false }
            return true
        }
        try await harness.stop()
    }
}

@Suite("A client released without shutdown()", .timeLimit(.minutes(2)))
struct ReleasedClientTests {
    /// AsyncHTTPClient stops a debug build whose HTTPClient is released running: an app that
    /// forgot `shutdown()` crashed (a hunt of 27 November).
    @Test("a client released without shutdown() after a request does not stop the process")
    func releasedWithoutShutdown() async throws {
        let origin = try await DemoOrigin.start()
        weak var released: AsyncHTTPClientTransport?
        do {
            let transport = AsyncHTTPClientTransport()
            released = transport
            var configuration = CachingClientConfiguration()
            configuration.transport = transport
            let client = try await CachingClient(configuration: configuration)
            _ = try await client.data(from: origin.baseURL + "/max-age/60")
        }
        // The client and its transport are gone (their deinit ran) once its background work ends.
        for _ in 0..<100 where released != nil { try await Task.sleep(for: .milliseconds(20)) }
        #expect(released == nil, "the transport was released, so its deinit ran")
        try await Task.sleep(for: .milliseconds(200))  // the transport's own shutdown, in the background
        try await origin.stop()
    }
}
