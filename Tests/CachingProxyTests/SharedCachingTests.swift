@testable import CachingProxy
import DemoOrigin
import Foundation
import Testing

/// What a client of the proxy sees of the shared cache: `Cache-Status`, `Age` and `Via` on each
/// response, and how often the origin is asked.
@Suite("Proxy: shared caching through real sockets", .timeLimit(.minutes(2)))
struct SharedCachingTests {
    @Test(
        "a miss is forwarded and stored, the next request is a hit with Age, both say so in Cache-Status and Via",
        arguments: [false, true])
    func missThenHit(hitsOnEventLoop: Bool) async throws {
        try await ProxyHarness.start { $0.answersHitsOnEventLoop = hitsOnEventLoop }.run { harness in
            let first = try await harness.request("/max-age/60")
            #expect(first.status == 200)
            #expect(ProxyHarness.cacheStatus(first) == "cachescope;fwd=uri-miss;fwd-status=200;stored;ttl=60")
            #expect(first.value("Via") == "1.1 cachescope")
            harness.clock.advance(by: 12)
            let second = try await harness.request("/max-age/60")
            #expect(second.status == 200)
            #expect(second.body == first.body)
            #expect(ProxyHarness.cacheStatus(second) == "cachescope;hit;ttl=48")
            #expect(second.value("Age") == "12")
            #expect(second.value("Via") == "1.1 cachescope")
            #expect(harness.origin.requestCount(path: "/max-age/60") == 1)
        }
    }

    @Test("s-maxage outlives max-age in the shared cache (RFC 9111 §5.2.2.10)")
    func sharedMaxAge() async throws {
        try await ProxyHarness.start().run { harness in
            _ = try await harness.request("/s-maxage/60")  // public, max-age=1, s-maxage=60
            harness.clock.advance(by: 30)
            let later = try await harness.request("/s-maxage/60")
            #expect(ProxyHarness.cacheStatus(later) == "cachescope;hit;ttl=30")
            #expect(harness.origin.requestCount(path: "/s-maxage/60") == 1)
        }
    }

    @Test("a private response is passed on but never stored (§5.2.2.7)")
    func privateResponse() async throws {
        try await ProxyHarness.start().run { harness in
            let first = try await harness.request("/private/60")
            let second = try await harness.request("/private/60")
            #expect(first.status == 200 && second.status == 200)
            #expect(ProxyHarness.cacheStatus(second) == "cachescope;fwd=uri-miss;fwd-status=200")
            #expect(harness.origin.requestCount(path: "/private/60") == 2)
        }
    }

    @Test("an answer to a request with Authorization is not stored without public or s-maxage (§3.5)")
    func authorization() async throws {
        try await ProxyHarness.start().run { harness in
            let credentials = ["Authorization: Basic dXNlcjpwYXNz"]
            let first = try await harness.request("/auth", headers: credentials)
            #expect(first.status == 200)
            let second = try await harness.request("/auth", headers: credentials)
            #expect(ProxyHarness.cacheStatus(second) == "cachescope;fwd=uri-miss;fwd-status=200")
            #expect(harness.origin.requestCount(path: "/auth") == 2)
            // The credentials reached the origin (the proxy forwards end-to-end fields).
            let sent = harness.origin.lastRequestHeaders(path: "/auth") ?? []
            #expect(sent.contains { $0.name.lowercased() == "authorization" && $0.value == "Basic dXNlcjpwYXNz" })
        }
    }

    @Test("a stale response is revalidated: the origin's 304 shows as fwd=stale;fwd-status=304")
    func revalidated() async throws {
        try await ProxyHarness.start().run { harness in
            let first = try await harness.request("/no-cache")
            let second = try await harness.request("/no-cache")
            #expect(second.status == 200)
            #expect(second.body == first.body)
            #expect(ProxyHarness.cacheStatus(second).hasPrefix("cachescope;fwd=stale;fwd-status=304"))
            #expect(second.value("Age") != nil)
            #expect(harness.origin.requestCount(path: "/no-cache") == 2)
        }
    }

    /// RFC 9211 §2.2: `uri-miss` means nothing was stored for the URI; these said it whenever
    /// a stored response was not used.
    @Test("fwd says why a stored response was not used: the request's directives, or another Vary selection", arguments: [
        (["Cache-Control: no-cache"], "cachescope;fwd=request;"), (["Pragma: no-cache"], "cachescope;fwd=request;"),
        (["Cache-Control: min-fresh=3600"], "cachescope;fwd=request;"),
    ])
    func forwardCause(headers: [String], expected: String) async throws {
        try await ProxyHarness.start().run { harness in
            _ = try await harness.request("/max-age/60")
            let second = try await harness.request("/max-age/60", headers: headers)
            #expect(ProxyHarness.cacheStatus(second).hasPrefix(expected), "\(headers): \(ProxyHarness.cacheStatus(second))")
        }
    }

    /// The 504 had no body and no `Cache-Control: no-store`, unlike the proxy's other answers.
    @Test("only-if-cached with nothing stored: 504 with a line saying why, never stored, and the origin not asked")
    func onlyIfCached() async throws {
        try await ProxyHarness.start().run { harness in
            let response = try await harness.request("/max-age/60", headers: ["Cache-Control: only-if-cached"])
            #expect(response.status == 504)
            #expect(response.value("Cache-Control") == "no-store")
            #expect(response.text.contains("only-if-cached does not allow asking the origin"), "\(response.text)")
            #expect(ProxyHarness.cacheStatus(response) == "cachescope;detail=only-if-cached")
            #expect(harness.origin.totalRequestCount() == 0)
        }
    }

    /// RFC 9211 keeps `fwd=request` for a response that was fresh.
    @Test("a stale stored response revalidated under a request's no-cache is fwd=stale")
    func staleUnderRequestNoCache() async throws {
        try await ProxyHarness.start().run { harness in
            _ = try await harness.request("/no-cache")
            let second = try await harness.request("/no-cache", headers: ["Cache-Control: no-cache"])
            #expect(ProxyHarness.cacheStatus(second).hasPrefix("cachescope;fwd=stale;fwd-status=304"), "\(ProxyHarness.cacheStatus(second))")
        }
    }

    @Test("a stored response for another Accept-Language is a vary-miss")
    func varyMiss() async throws {
        try await ProxyHarness.start().run { harness in
            _ = try await harness.request("/vary/lang", headers: ["Accept-Language: en"])
            let other = try await harness.request("/vary/lang", headers: ["Accept-Language: fr"])
            #expect(ProxyHarness.cacheStatus(other).hasPrefix("cachescope;fwd=vary-miss;fwd-status=200"), "\(ProxyHarness.cacheStatus(other))")
        }
    }

    @Test("a POST is forwarded (fwd=method) and invalidates the stored GET (§4.4)")
    func unsafeMethodInvalidates() async throws {
        try await ProxyHarness.start().run { harness in
            _ = try await harness.request("/items/7")
            #expect(ProxyHarness.cacheStatus(try await harness.request("/items/7")).contains("hit"))
            let post = try await harness.request("/items/7", method: "POST", headers: ["Content-Type: application/json"], body: "{}")
            #expect(post.status < 400)
            #expect(ProxyHarness.cacheStatus(post) == "cachescope;fwd=method;fwd-status=\(post.status)")
            let after = try await harness.request("/items/7")
            #expect(ProxyHarness.cacheStatus(after).hasPrefix("cachescope;fwd=uri-miss"))
            #expect(harness.origin.requestCount(path: "/items/7") == 3)  // GET, POST, GET
        }
    }

    @Test("a client's If-None-Match that matches the stored ETag gets a 304 from the cache, without the body")
    func clientConditional() async throws {
        try await ProxyHarness.start().run { harness in
            let first = try await harness.request("/max-age/60")
            let etag = try #require(first.value("ETag"))
            let conditional = try await harness.request("/max-age/60", headers: ["If-None-Match: W/\(etag), \"other\""])
            #expect(conditional.status == 304)
            #expect(conditional.body.isEmpty)
            #expect(conditional.value("ETag") == etag)
            #expect(ProxyHarness.cacheStatus(conditional) == "cachescope;hit;ttl=60")
            let other = try await harness.request("/max-age/60", headers: ["If-None-Match: \"other\""])
            #expect(other.status == 200)
            #expect(other.body == first.body)
            #expect(harness.origin.requestCount(path: "/max-age/60") == 1)
        }
    }

    @Test("a HEAD keeps the origin's Content-Length and gets no body")
    func head() async throws {
        try await ProxyHarness.start().run { harness in
            let head = try await harness.request("/large/4", method: "HEAD")
            #expect(head.status == 200)
            #expect(head.value("Content-Length") == "4096")
            #expect(head.body.isEmpty)
        }
    }

    @Test("the access log has one line per request, in common log format with outcome and reason")
    func accessLog() async throws {
        try await ProxyHarness.start().run { harness in
            _ = try await harness.request("/max-age/60")
            _ = try await harness.request("/max-age/60")
            let lines = await harness.log.records(count: 2).map(\.commonLogLine)
            try #require(lines.count == 2)
            #expect(lines[0].hasPrefix("127.0.0.1 - - ["))
            #expect(lines[0].contains("] \"GET /max-age/60 HTTP/1.1\" 200 "))
            #expect(lines[0].hasSuffix(" miss \"max-age=60\"") || lines[0].contains(" miss \""), "\(lines[0])")
            #expect(lines[1].contains(" hit \""), "\(lines[1])")
        }
    }
}
