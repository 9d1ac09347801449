import CacheEvents
import CachingClient
import DemoOrigin
import Foundation
import HTTPCaching
import HTTPTypes
import Testing

/// `immediateResponse(for:)`: what a server's event loop asks before it starts a task. It
/// answers exactly what `data(for:)` would from memory, and otherwise nothing, leaving no trace.
@Suite("Answering from memory without suspending", .timeLimit(.minutes(1)))
struct ImmediateResponseTests {
    @Test("a fresh hit is answered with data(for:)'s outcome, reason, Age and body, and its four events")
    func freshHit() async throws {
        try await Harness.start(mode: .shared).runLogged { harness, log in
            _ = try await harness.get("/max-age/3600")
            harness.clock.advance(by: 5)
            let request = try #require(CachingClient.request(url: harness.url("/max-age/3600")))
            let answer = try #require(harness.client.immediateResponse(for: request))
            let viaData = try await harness.get("/max-age/3600")
            #expect(answer.outcome == .hit)
            #expect(answer.reason == viaData.reason)
            #expect(answer.response.headerFields[.age] == "5")
            #expect(answer.response.headerFields == viaData.response.headerFields)
            #expect(answer.body == viaData.body)
            #expect(!answer.fromNetwork)
            let events = await EventOrderTests.expectSequence(
                ["requestStarted", "lookup", "served", "requestFinished"], of: answer.requestID, in: log)
            #expect(events.count == 4)
            #expect(harness.origin.requestCount(path: "/max-age/3600") == 1)
        }
    }

    @Test("a miss, a stale response, a POST and a shut-down client are not answered, and publish nothing")
    func notAnswered() async throws {
        try await Harness.start(mode: .shared).runLogged { harness, log in
            let cold = try #require(CachingClient.request(url: harness.url("/max-age/1")))
            #expect(harness.client.immediateResponse(for: cold) == nil)
            _ = try await harness.get("/max-age/1")
            harness.clock.advance(by: 10)
            #expect(harness.client.immediateResponse(for: cold) == nil)  // stale: revalidated at the origin
            let post = try #require(CachingClient.request(url: harness.url("/max-age/1"), method: .post))
            #expect(harness.client.immediateResponse(for: post) == nil)
            // Only the one request sent with data(for:) appears in the events.
            _ = await log.wait { events in events.contains { $0.kind.name == "requestFinished" } }
            let started = log.all.filter { $0.kind.name == "requestStarted" }
            #expect(started.count == 1)
        }
        let harness = try await Harness.start(mode: .shared)
        _ = try await harness.get("/max-age/3600")
        let request = try #require(CachingClient.request(url: harness.url("/max-age/3600")))
        try await harness.stop()
        #expect(harness.client.immediateResponse(for: request) == nil)
    }
}
