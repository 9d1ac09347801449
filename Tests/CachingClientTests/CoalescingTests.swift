import CacheEvents
import CachingClient
import Foundation
import HTTPCaching
import HTTPTypes
import Testing

@Suite("Coalescing: concurrent requests for one key share one origin request")
struct CoalescingTests {
    @Test("100 concurrent requests for one key make exactly 1 origin request")
    func hundredConcurrentRequests() async throws {
        let harness = try await Harness.start()
        let results = try await withThrowingTaskGroup(of: ClientResponse.self) { group in
            for _ in 0..<100 { group.addTask { try await harness.get("/slow/300") } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 100)
        #expect(harness.origin.requestCount(path: "/slow/300") == 1)
        #expect(Set(results.map(\.body)).count == 1)
        #expect(results.filter(\.coalesced).count == 99)
        #expect(results.allSatisfy { $0.outcome == .miss })
        try await harness.stop()
    }

    @Test("a cancelled follower stops waiting; the leader and the other followers share one origin request")
    func cancelledFollowerLeavesOthers() async throws {
        let harness = try await Harness.start()
        let leader = Task { try await harness.get("/slow/400") }
        try await Task.sleep(for: .milliseconds(50))
        let cancelled = Task { try await harness.get("/slow/400") }
        let other = Task { try await harness.get("/slow/400") }
        try await Task.sleep(for: .milliseconds(50))
        cancelled.cancel()
        let cancelledResult = await cancelled.result
        #expect(throws: CancellationError.self) { try cancelledResult.get() }
        #expect(try await leader.value.response.status.code == 200)
        let otherResult = try await other.value
        #expect(otherResult.response.status.code == 200)
        #expect(otherResult.coalesced)
        #expect(harness.origin.requestCount(path: "/slow/400") == 1)
        try await harness.stop()
    }

    @Test("a cancelled leader does not fail its followers: they fetch again, once between them")
    func cancelledLeaderLeavesFollowers() async throws {
        let harness = try await Harness.start()
        let leader = Task { try await harness.get("/slow/400") }
        try await Task.sleep(for: .milliseconds(50))
        let followers = (0..<3).map { _ in Task { try await harness.get("/slow/400") } }
        try await Task.sleep(for: .milliseconds(50))
        leader.cancel()
        let leaderResult = await leader.result
        #expect(throws: CancellationError.self) { try leaderResult.get() }
        for follower in followers {
            #expect(try await follower.value.response.status.code == 200)
        }
        // The cancelled leader's request, then one shared request for the three followers.
        #expect(harness.origin.requestCount(path: "/slow/400") == 2)
        try await harness.stop()
    }

    @Test("requests that negotiate different Vary values are not coalesced onto one answer")
    func varyAwareCoalescing() async throws {
        let harness = try await Harness.start()
        async let english = harness.get("/vary/lang", headers: [.acceptLanguage: "en"])
        async let french = harness.get("/vary/lang", headers: [.acceptLanguage: "fr"])
        let (en, fr) = try await (english, french)
        #expect(en.body != fr.body)
        #expect(try await harness.get("/vary/lang", headers: [.acceptLanguage: "en"]).body == en.body)
        try await harness.stop()
    }

    @Test("coalesced followers are reported with the leader's ID")
    func coalescedEvents() async throws {
        let harness = try await Harness.start()
        let log = EventLog(await harness.client.subscribe(.lossless(bufferSize: 10_000), snapshot: false))
        async let a = harness.get("/slow/300")
        async let b = harness.get("/slow/300")
        let (first, second) = try await (a, b)
        let follower = first.coalesced ? first : second
        let leader = first.coalesced ? second : first
        #expect(await log.wait { $0.contains { $0.requestID == follower.requestID && $0.kind.name == "requestFinished" } })
        let coalesced = log.all.compactMap { event -> UInt64? in
            if case .coalesced(let info) = event.kind, event.requestID == follower.requestID { return info.leaderID }
            return nil
        }
        #expect(coalesced == [leader.requestID])
        try await harness.stop()
    }

    @Test("a GET that arrives while a HEAD of the same URL is under way gets its own body, not the HEAD's empty one")
    func headIsNotSharedWithGet() async throws {
        let harness = try await Harness.start()
        let head = Task { try await harness.client.data(for: CachingClient.request(url: harness.url("/slow/300"), method: .head)!) }
        try await Task.sleep(for: .milliseconds(50))
        let get = try await harness.get("/slow/300")
        #expect(try await head.value.body.isEmpty)
        #expect(!get.body.isEmpty)
        #expect(get.response.headerFields[.contentLength] == String(get.body.count))
        #expect(!get.coalesced)
        #expect(harness.origin.requestCount(path: "/slow/300") == 2)
        try await harness.stop()
    }

    @Test("an answer the cache may not store is not handed to waiting requests: each fetches its own")
    func unstorableAnswerIsNotShared() async throws {
        let harness = try await Harness.start()
        // Request no-store (RFC 9111 §5.2.1.5): the response may not be stored, so it may not
        // be reused either — not even by a request that arrived while it was on its way.
        let results = try await withThrowingTaskGroup(of: ClientResponse.self) { group in
            for _ in 0..<5 { group.addTask { try await harness.get("/slow/300", headers: [.cacheControl: "no-store"]) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 5)
        #expect(results.allSatisfy { !$0.coalesced && $0.response.status.code == 200 })
        #expect(harness.origin.requestCount(path: "/slow/300") == 5)
        try await harness.stop()
    }
}
