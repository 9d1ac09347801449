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

    @Test("a cancelled waiter does not cancel the others")
    func cancelledWaiterLeavesOthers() async throws {
        let harness = try await Harness.start()
        let leader = Task { try await harness.get("/slow/400") }
        try await Task.sleep(for: .milliseconds(50))
        let follower = Task { try await harness.get("/slow/400") }
        try await Task.sleep(for: .milliseconds(50))
        leader.cancel()
        let leaderResult = await leader.result
        let followerResult = try await follower.value
        #expect(throws: CancellationError.self) { try leaderResult.get() }
        #expect(followerResult.response.status.code == 200)
        #expect(harness.origin.requestCount(path: "/slow/400") == 1)
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
}
