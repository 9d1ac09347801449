import CachingClient
import Foundation
import HTTPCaching
import HTTPTypes
import Testing
import DemoOrigin
import CacheStore

/// The client as a shared cache (a proxy's), against the same endpoints in private mode: what
/// RFC 9111 lets a shared cache keep, for how long, and what it must not keep.
@Suite("Shared mode: s-maxage, private and Authorization", .timeLimit(.minutes(2)))
struct SharedModeTests {
    @Test("s-maxage outlives max-age in a shared cache (§5.2.2.10); a private cache goes by max-age", arguments: CacheMode.allCases)
    func sharedMaxAge(mode: CacheMode) async throws {
        try await Harness.start(mode: mode).run { harness in
            let first = try await harness.get("/s-maxage/60")  // public, max-age=1, s-maxage=60
            #expect(first.outcome == .miss)
            harness.clock.advance(by: 30)
            let later = try await harness.get("/s-maxage/60")
            switch mode {
            case .shared:
                #expect(later.outcome == .hit)
                #expect(later.reason.contains("s-maxage=60"), "\(later.reason)")
                #expect(harness.origin.requestCount(path: "/s-maxage/60") == 1)
            case .private:
                #expect(later.outcome == .revalidated)
                #expect(harness.origin.requestCount(path: "/s-maxage/60") == 2)
            }
        }
    }

    @Test("a private response is not stored by a shared cache (§5.2.2.7), and the reason says so", arguments: CacheMode.allCases)
    func privateResponse(mode: CacheMode) async throws {
        try await Harness.start(mode: mode).run { harness in
            let first = try await harness.get("/private/60")
            let second = try await harness.get("/private/60")
            switch mode {
            case .shared:
                #expect(first.reason == "private (shared cache)")
                #expect(second.outcome == .miss)
                #expect(harness.origin.requestCount(path: "/private/60") == 2)
                #expect(harness.client.store.stats().entryCount == 0)
            case .private:
                #expect(second.outcome == .hit)
                #expect(harness.origin.requestCount(path: "/private/60") == 1)
            }
        }
    }

    @Test("a Set-Cookie response marked private stays out of a shared cache")
    func cookieResponse() async throws {
        try await Harness.start(mode: .shared).run { harness in
            _ = try await harness.get("/cookie")
            #expect(try await harness.get("/cookie").outcome == .miss)
            #expect(harness.origin.requestCount(path: "/cookie") == 2)
        }
    }

    @Test("an answer to a request with Authorization is not stored by a shared cache without public or s-maxage (§3.5)")
    func authorizationNotStored() async throws {
        try await Harness.start(mode: .shared).run { harness in
            let credentials: HTTPFields = [.authorization: "Basic dXNlcjpwYXNz"]
            let first = try await harness.get("/auth", headers: credentials)
            #expect(first.response.status.code == 200)
            #expect(first.reason == "Authorization in request (shared cache)")
            let second = try await harness.get("/auth", headers: credentials)
            #expect(second.outcome == .miss)
            #expect(harness.origin.requestCount(path: "/auth") == 2)
        }
    }

    @Test(
        "a private cache stores the same authorized answer; with Authorization, a response with public and s-maxage may be stored by a shared cache",
        arguments: [
            (CacheMode.private, "/auth", "Basic dXNlcjpwYXNz"),
            (.shared, "/s-maxage/60", "Bearer token"),
        ])
    func authorizedAnswerStored(mode: CacheMode, path: String, authorization: String) async throws {
        try await Harness.start(mode: mode).run { harness in
            let credentials: HTTPFields = [.authorization: authorization]
            let first = try await harness.get(path, headers: credentials)
            #expect(first.outcome == .miss)
            #expect(first.reason != "Authorization in request (shared cache)")
            #expect(try await harness.get(path, headers: credentials).outcome == .hit)
            #expect(harness.origin.requestCount(path: path) == 1)
        }
    }
}
