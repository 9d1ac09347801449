import CacheEvents
import CachingClient
import DemoOrigin
import Foundation
import HTTPCaching
import HTTPTypes
import Testing

@Suite("The classic scenario: fresh hit, then revalidation with a 304", .timeLimit(.minutes(2)))
struct ClassicScenarioTests {
    @Test("a second request within max-age makes no network request")
    func freshHitMakesNoNetworkRequest() async throws {
        try await Harness.start().run { harness in
            let first = try await harness.get("/max-age/60")
            let second = try await harness.get("/max-age/60")
            #expect(first.outcome == .miss)
            #expect(first.fromNetwork)
            #expect(second.outcome == .hit)
            #expect(!second.fromNetwork)
            #expect(second.body == first.body)
            #expect(second.reason == "max-age=60")
            #expect(harness.origin.requestCount(path: "/max-age/60") == 1)
        }
    }

    @Test("after expiry it sends If-None-Match, gets a 304 and serves the stored body")
    func expiryRevalidatesWith304() async throws {
        try await Harness.start().run { harness in
            let first = try await harness.get("/max-age/2")
            let etag = try #require(first.response.headerFields[.eTag])
            harness.clock.advance(by: 5)
            let second = try await harness.get("/max-age/2")
            #expect(second.outcome == .revalidated)
            #expect(second.body == first.body)
            #expect(second.response.status.code == 200)
            #expect(second.fromNetwork)
            #expect(harness.origin.requestCount(path: "/max-age/2") == 2)
            let sent = try #require(harness.origin.lastRequestHeaders(path: "/max-age/2"))
            #expect(sent.contains { $0.name.lowercased() == "if-none-match" && $0.value == etag })
            // Freshened: the next request is a hit again.
            let third = try await harness.get("/max-age/2")
            #expect(third.outcome == .hit)
            #expect(harness.origin.requestCount(path: "/max-age/2") == 2)
        }
    }

    @Test("a different query string is a different resource")
    func queryIsPartOfTheKey() async throws {
        try await Harness.start().run { harness in
            let a = try await harness.get("/max-age/60?page=1")
            let b = try await harness.get("/max-age/60?page=2")
            #expect(a.outcome == .miss)
            #expect(b.outcome == .miss)
            #expect(a.body != b.body)
            #expect(try await harness.get("/max-age/60?page=1").outcome == .hit)
        }
    }

    @Test("each request's events come in order: started, lookup, served, finished")
    func eventOrder() async throws {
        try await Harness.start().runLogged { harness, log in
            let miss = try await harness.get("/max-age/2")
            let hit = try await harness.get("/max-age/2")
            harness.clock.advance(by: 5)
            let revalidated = try await harness.get("/max-age/2")
            #expect(await log.wait { events in events.contains { $0.requestID == revalidated.requestID && $0.kind.name == "requestFinished" } })
            #expect(log.kinds(of: miss.requestID) == ["requestStarted", "lookup", "served", "requestFinished"])
            #expect(log.kinds(of: hit.requestID) == ["requestStarted", "lookup", "served", "requestFinished"])
            #expect(log.kinds(of: revalidated.requestID) == ["requestStarted", "lookup", "revalidationSent", "notModified", "served", "requestFinished"])
            let seqs = log.all.map(\.seq)
            #expect(seqs == seqs.sorted())
            #expect(log.all.contains { if case .stored = $0.kind { true } else { false } })
        }
    }
}
