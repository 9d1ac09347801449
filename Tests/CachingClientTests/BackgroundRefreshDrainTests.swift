import CachingClient
import Foundation
import HTTPTypes
import Testing
import HTTPCaching
import DemoOrigin

/// A process that answers with a stale response and then exits must still refresh it:
/// `finishBackgroundRefreshes(within:)` waits for the stale-while-revalidate refreshes in
/// flight, with a bound.
@Suite("Finishing background refreshes before shutdown", .timeLimit(.minutes(2)))
struct BackgroundRefreshDrainTests {
    @Test("after a stale-while-revalidate answer, finishing the refreshes asks the origin before shutdown")
    func refreshReachesOrigin() async throws {
        let harness = try await Harness.start()
        _ = try await harness.get("/swr/1/600")
        harness.clock.advance(by: 5)
        let stale = try await harness.get("/swr/1/600")
        #expect(stale.outcome == .stale && !stale.fromNetwork)
        #expect(await harness.client.finishBackgroundRefreshes(within: .seconds(10)))
        #expect(harness.origin.requestCount(path: "/swr/1/600") == 2, "the revalidation reached the origin")
        try await harness.stop()
        #expect(harness.origin.requestCount(path: "/swr/1/600") == 2)
    }

    @Test("with nothing in flight it returns at once")
    func nothingInFlight() async throws {
        try await Harness.start().run { harness in
            let started = ContinuousClock.now
            #expect(await harness.client.finishBackgroundRefreshes(within: .seconds(10)))
            #expect(ContinuousClock.now - started < .seconds(5), "well before the 10 s bound, even on a busy machine")
        }
    }

    @Test("a refresh that outlasts the bound is cancelled: the wait returns false soon after the bound")
    func bounded() async throws {
        let stalling = StallingRevalidations()
        try await Harness.start { $0.transport = stalling }.run { harness in
            _ = try await harness.get("/swr/1/600")
            harness.clock.advance(by: 5)
            #expect(try await harness.get("/swr/1/600").outcome == .stale)
            let started = ContinuousClock.now
            #expect(await harness.client.finishBackgroundRefreshes(within: .milliseconds(300)) == false)
            let waited = ContinuousClock.now - started
            #expect(waited >= .milliseconds(300) && waited < .seconds(5), "waited \(waited)")
        }
    }
}

/// A transport that sends requests with the real one but holds every conditional request (a
/// revalidation) for a minute, or until cancelled.
struct StallingRevalidations: Transport {
    let real = AsyncHTTPClientTransport()

    func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> TransportResponse {
        if request.headerFields[.ifNoneMatch] != nil || request.headerFields[.ifModifiedSince] != nil {
            try await Task.sleep(for: .seconds(60))
        }
        return try await real.send(request, body: body, timeout: timeout)
    }

    func shutdown() async throws {
        try await real.shutdown()
    }
}
