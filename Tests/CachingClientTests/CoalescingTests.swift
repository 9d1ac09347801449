import CacheEvents
@testable import CachingClient
import Foundation
import HTTPCaching
import HTTPTypes
import Testing
import DemoOrigin

/// Who leads is decided by handshakes, never by timing: the origin holds the leader's
/// response (a gate), the test starts the followers once the leader's request has reached the
/// origin, and opens the gate once they are waiting for it.
@Suite("Coalescing: concurrent requests for one key share one origin request", .timeLimit(.minutes(2)))
struct CoalescingTests {
    @Test("100 concurrent requests for one key make exactly 1 origin request")
    func hundredConcurrentRequests() async throws {
        try await Harness.start().run { harness in
            let gate = harness.hold("/max-age/60")
            let results = try await withThrowingTaskGroup(of: ClientResponse.self) { group in
                for _ in 0..<100 { group.addTask { try await harness.get("/max-age/60") } }
                try await harness.waitForArrivals(1, at: gate)
                try await harness.waitForFollowers(99)
                gate.open()
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == 100)
            #expect(harness.origin.requestCount(path: "/max-age/60") == 1)
            #expect(Set(results.map(\.body)).count == 1)
            #expect(results.filter(\.coalesced).count == 99)
            #expect(results.allSatisfy { $0.outcome == .miss })
        }
    }

    @Test("a cancelled follower stops waiting; the leader and the other followers share one origin request")
    func cancelledFollowerLeavesOthers() async throws {
        try await Harness.start().run { harness in
            let gate = harness.hold("/max-age/60")
            let leader = Task { try await harness.get("/max-age/60") }
            try await harness.waitForArrivals(1, at: gate)
            let cancelled = Task { try await harness.get("/max-age/60") }
            let other = Task { try await harness.get("/max-age/60") }
            try await harness.waitForFollowers(2)
            cancelled.cancel()
            // The cancelled follower returns while the leader's response is still held.
            let cancelledResult = await cancelled.result
            #expect(throws: CancellationError.self) { try cancelledResult.get() }
            #expect(harness.client.coalescer.waiterCount == 1)
            gate.open()
            let leaderResult = try await leader.value
            #expect(leaderResult.response.status.code == 200)
            #expect(!leaderResult.coalesced)
            let otherResult = try await other.value
            #expect(otherResult.response.status.code == 200)
            #expect(otherResult.coalesced)
            #expect(otherResult.body == leaderResult.body)
            #expect(harness.origin.requestCount(path: "/max-age/60") == 1)
        }
    }

    @Test("a cancelled leader does not fail its followers: they fetch again, once between them")
    func cancelledLeaderLeavesFollowers() async throws {
        try await Harness.start().run { harness in
            let gate = harness.hold("/max-age/60")
            let leader = Task { try await harness.get("/max-age/60") }
            try await harness.waitForArrivals(1, at: gate)
            let followers = (0..<3).map { _ in Task { try await harness.get("/max-age/60") } }
            try await harness.waitForFollowers(3)
            leader.cancel()
            let leaderResult = await leader.result
            #expect(throws: CancellationError.self) { try leaderResult.get() }
            // One follower leads the second fetch (held at the gate too), the other two wait for it.
            try await harness.waitForArrivals(2, at: gate)
            try await harness.waitForFollowers(2)
            gate.open()
            var coalesced = 0
            for follower in followers {
                let result = try await follower.value
                #expect(result.response.status.code == 200)
                if result.coalesced { coalesced += 1 }
            }
            #expect(coalesced == 2)
            // The cancelled leader's request, then one shared request for the three followers.
            #expect(harness.origin.requestCount(path: "/max-age/60") == 2)
        }
    }

    @Test("requests that negotiate different Vary values are not coalesced onto one answer")
    func varyAwareCoalescing() async throws {
        try await Harness.start().run { harness in
            let gate = harness.hold("/vary/lang")
            let english = Task { try await harness.get("/vary/lang", headers: [.acceptLanguage: "en"]) }
            try await harness.waitForArrivals(1, at: gate)
            // Nothing stored yet says the answer varies, so French first waits for English's fetch…
            let french = Task { try await harness.get("/vary/lang", headers: [.acceptLanguage: "fr"]) }
            try await harness.waitForFollowers(1)
            gate.open()
            let (en, fr) = try await (english.value, french.value)
            // …and then, seeing it varies on a field it sends differently, fetches its own.
            #expect(!fr.coalesced)
            #expect(en.body != fr.body)
            #expect(String(decoding: fr.body, as: UTF8.self).contains("Accept-Language: fr"))
            #expect(String(decoding: en.body, as: UTF8.self).contains("Accept-Language: en"))
            #expect(harness.origin.requestCount(path: "/vary/lang") == 2)
            #expect(try await harness.get("/vary/lang", headers: [.acceptLanguage: "en"]).body == en.body)
            #expect(try await harness.get("/vary/lang", headers: [.acceptLanguage: "fr"]).body == fr.body)
            #expect(harness.origin.requestCount(path: "/vary/lang") == 2)
        }
    }

    @Test("coalesced followers are reported with the leader's ID")
    func coalescedEvents() async throws {
        try await Harness.start().runLogged { harness, log in
            let (leader, follower) = try await harness.leaderAndFollower("/max-age/60")
            #expect(!leader.coalesced)
            #expect(follower.coalesced)
            #expect(await log.wait { $0.contains { $0.requestID == follower.requestID && $0.kind.name == "requestFinished" } })
            let coalesced = log.all.compactMap { event -> UInt64? in
                if case .coalesced(let info) = event.kind, event.requestID == follower.requestID { return info.leaderID }
                return nil
            }
            #expect(coalesced == [leader.requestID])
        }
    }

    @Test("a GET that arrives while a HEAD of the same URL is under way gets its own body, not the HEAD's empty one")
    func headIsNotSharedWithGet() async throws {
        try await Harness.start().run { harness in
            let gate = harness.hold("/max-age/60")
            let headRequest = try #require(CachingClient.request(url: harness.url("/max-age/60"), method: .head))
            let head = Task { try await harness.client.data(for: headRequest) }
            try await harness.waitForArrivals(1, at: gate)
            let getTask = Task { try await harness.get("/max-age/60") }
            // The GET does not wait for the HEAD: it reaches the origin while the HEAD is held.
            try await harness.waitForArrivals(2, at: gate)
            #expect(harness.client.coalescer.waiterCount == 0)
            gate.open()
            let get = try await getTask.value
            #expect(try await head.value.body.isEmpty)
            #expect(!get.body.isEmpty)
            #expect(get.response.headerFields[.contentLength] == String(get.body.count))
            #expect(!get.coalesced)
            #expect(harness.origin.requestCount(path: "/max-age/60") == 2)
        }
    }

    @Test("an answer the cache may not store is not handed to waiting requests: each fetches its own")
    func unstorableAnswerIsNotShared() async throws {
        try await Harness.start().run { harness in
            // Request no-store (RFC 9111 §5.2.1.5): the response may not be stored, so it may not
            // be reused either — not even by a request that arrived while it was on its way.
            let gate = harness.hold("/max-age/60")
            let noStore: HTTPFields = [.cacheControl: "no-store"]
            let results = try await withThrowingTaskGroup(of: ClientResponse.self) { group in
                group.addTask { try await harness.get("/max-age/60", headers: noStore) }
                try await harness.waitForArrivals(1, at: gate)
                for _ in 0..<4 { group.addTask { try await harness.get("/max-age/60", headers: noStore) } }
                try await harness.waitForFollowers(4)
                gate.open()
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == 5)
            #expect(results.allSatisfy { !$0.coalesced && $0.response.status.code == 200 })
            #expect(harness.origin.requestCount(path: "/max-age/60") == 5)
        }
    }
}
