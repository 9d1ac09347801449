import CacheEvents
import CachingClient
import Foundation
import HTTPCaching
import HTTPTypes
import Testing
import DemoOrigin

@Suite("RFC 5861: stale-while-revalidate and stale-if-error through the client", .timeLimit(.minutes(2)))
struct StaleAndErrorTests {
    /// How the origin fails the second request, and what the reason then names.
    enum OriginFailure: String, Sendable, CaseIterable {
        /// `/sie/…` answers 500 from its second request on.
        case answers500 = "status 500"
        case down = "cannot connect"
    }

    @Test("stale-if-error serves the stored response when the origin answers 500 or is down", arguments: OriginFailure.allCases)
    func staleIfError(failure: OriginFailure) async throws {
        try await Harness.start().run { harness in
            let first = try await harness.get("/sie/1/600")
            if failure == .down { try await harness.origin.stop() }
            harness.clock.advance(by: 10)
            let second = try await harness.get("/sie/1/600")
            #expect(second.outcome == .stale)
            #expect(second.reason.hasPrefix("stale-if-error ("), "\(second.reason)")
            #expect(second.reason.contains(failure.rawValue), "\(second.reason)")
            #expect(second.body == first.body)
            #expect(second.response.status.code == 200)
            #expect(harness.origin.requestCount(path: "/sie/1/600") == (failure == .down ? 1 : 2))
        }
    }

    @Test("past the stale-if-error window the failure reaches the caller")
    func staleIfErrorWindowPassed() async throws {
        try await Harness.start().run { harness in
            _ = try await harness.get("/sie/1/5")
            try await harness.origin.stop()
            harness.clock.advance(by: 60)
            await #expect {
                try await harness.get("/sie/1/5")
            } throws: { error in
                guard case .transport(.connectionFailed(let url, _)) = error as? CachingClientError else { return false }
                return url == harness.url("/sie/1/5")
            }
        }
    }

    @Test("without stale-if-error a dead origin is an error event and a thrown transport error")
    func deadOriginWithoutStaleIfError() async throws {
        try await Harness.start().runLogged(bufferSize: 1000) { harness, log in
            try await harness.origin.stop()
            do {
                _ = try await harness.get("/max-age/60")
                Issue.record("expected a transport error")
            } catch let error as CachingClientError {
                guard case .transport(.connectionFailed) = error else { Issue.record("unexpected \(error)"); return }
            }
            #expect(await log.wait { $0.contains { if case .requestFinished(let f) = $0.kind { f.outcome == .error } else { false } } })
        }
    }

    @Test("stale-while-revalidate serves stale at once and refreshes once in the background")
    func staleWhileRevalidate() async throws {
        try await Harness.start().runLogged { harness, log in
            _ = try await harness.get("/swr/1/600")
            harness.clock.advance(by: 5)
            // The origin holds the refresh, so the second request certainly finds it under way.
            let gate = harness.hold("/swr/1/600")
            let stale = try await harness.get("/swr/1/600")
            let again = try await harness.get("/swr/1/600")
            #expect(stale.outcome == .stale)
            #expect(stale.reason == "stale-while-revalidate")
            #expect(!stale.fromNetwork)
            #expect(again.outcome == .stale, "served stale again while the one refresh is under way")
            try await harness.waitForArrivals(1, at: gate)
            gate.open()
            #expect(await log.wait { $0.contains { if case .notModified = $0.kind { true } else { false } } })
            #expect(harness.origin.requestCount(path: "/swr/1/600") == 2)
            let background = log.all.contains { if case .revalidationSent(let sent) = $0.kind { sent.background } else { false } }
            #expect(background)
            #expect(try await harness.get("/swr/1/600").outcome == .hit)
        }
    }

    @Test("only-if-cached with nothing stored answers 504 without touching the network")
    func onlyIfCached() async throws {
        try await Harness.start().run { harness in
            let result = try await harness.get("/max-age/60", headers: [.cacheControl: "only-if-cached"])
            #expect(result.response.status.code == 504)
            #expect(result.outcome == .error)
            #expect(harness.origin.totalRequestCount() == 0)
        }
    }

    @Test("returnCacheDataDontLoad with nothing stored throws notCached without touching the network")
    func cacheOnlyPolicy() async throws {
        try await Harness.start().run { harness in
            await #expect {
                try await harness.get("/max-age/60", policy: .returnCacheDataDontLoad)
            } throws: { error in
                guard case .notCached(let url) = error as? CachingClientError else { return false }
                return url == harness.url("/max-age/60")
            }
            #expect(harness.origin.totalRequestCount() == 0)
            _ = try await harness.get("/max-age/1")
            harness.clock.advance(by: 100)
            let stale = try await harness.get("/max-age/1", policy: .returnCacheDataDontLoad)
            #expect(stale.outcome == .stale)
            #expect(harness.origin.requestCount(path: "/max-age/1") == 1)
        }
    }
}
