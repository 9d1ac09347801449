import CacheEvents
import CachingClient
import Foundation
import HTTPCaching
import HTTPTypes
import Testing
import DemoOrigin

/// Redirects through the client: each hop through the cache, the documented limit
/// (`maximumRedirects`, ``CachingClientError/tooManyRedirects(url:limit:)`` past it), and
/// `followRedirects` off. The demo origin's redirects are one hop long (`/redirect/{code}/{N}`
/// to `/max-age/N`), so the limit is probed at its edge: a limit of 1 follows it, 0 refuses.
@Suite("Redirects: followed hop by hop, up to the limit", .timeLimit(.minutes(2)))
struct RedirectTests {
    @Test("a chain as long as the limit is followed", arguments: [301, 302, 307, 308])
    func chainAtTheLimit(code: Int) async throws {
        try await Harness.start { $0.maximumRedirects = 1 }.run { harness in
            let result = try await harness.get("/redirect/\(code)/60")
            #expect(result.response.status.code == 200)
            #expect(String(decoding: result.body, as: UTF8.self).hasPrefix("DemoOrigin /max-age/60"))
            #expect(harness.origin.requestCount(path: "/redirect/\(code)/60") == 1)
            #expect(harness.origin.requestCount(path: "/max-age/60") == 1)
        }
    }

    @Test("a chain longer than the limit throws tooManyRedirects naming the first URL and the limit; the target is not requested")
    func chainPastTheLimit() async throws {
        try await Harness.start { $0.maximumRedirects = 0 }.runLogged { harness, log in
            let url = harness.url("/redirect/302/60")
            await #expect {
                try await harness.get("/redirect/302/60")
            } throws: { error in
                guard case .tooManyRedirects(let failed, let limit) = error as? CachingClientError else { return false }
                return failed == url && limit == 0
            }
            #expect(CachingClientError.tooManyRedirects(url: url, limit: 0).description == "\(url) redirected more than 0 times")
            #expect(harness.origin.requestCount(path: "/redirect/302/60") == 1)
            #expect(harness.origin.requestCount(path: "/max-age/60") == 0)
            // The hop itself was a complete request in the stream: the 302, served from the network.
            #expect(await log.wait { events in
                events.contains { if case .requestFinished(let finished) = $0.kind { finished.status == 302 } else { false } }
            })
        }
    }

    @Test("with followRedirects off the redirect itself is the answer")
    func notFollowed() async throws {
        try await Harness.start { $0.followRedirects = false }.run { harness in
            let result = try await harness.get("/redirect/301/60")
            #expect(result.response.status.code == 301)
            #expect(result.response.headerFields[.location] == "/max-age/60")
            #expect(harness.origin.requestCount(path: "/max-age/60") == 0)
            // A 301 is cacheable for an hour: the second time it comes from the cache.
            #expect(try await harness.get("/redirect/301/60").outcome == .hit)
            #expect(harness.origin.requestCount(path: "/redirect/301/60") == 1)
        }
    }

    @Test(
        "a cacheable 301 is followed and both hops are cached; temporary redirects are not stored: each request asks the origin for the hop again; the target is a hit",
        arguments: [(301, 1), (307, 2)])
    func redirectFollowedTwice(code: Int, hopRequests: Int) async throws {
        try await Harness.start().run { harness in
            let first = try await harness.get("/redirect/\(code)/60")
            #expect(first.response.status.code == 200)
            let second = try await harness.get("/redirect/\(code)/60")
            #expect(second.outcome == .hit, "the target, /max-age/60, is fresh")
            #expect(second.body == first.body)
            #expect(harness.origin.requestCount(path: "/redirect/\(code)/60") == hopRequests)
            #expect(harness.origin.requestCount(path: "/max-age/60") == 1)
        }
    }
}
