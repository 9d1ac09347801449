import Foundation
import Synchronization
import Testing

@testable import DemoOrigin

@Suite("Endpoints with behaviour: variants, failures, delays, sizes, redirects, credentials", .timeLimit(.minutes(2)))
struct BehaviourEndpointTests {
    @Test("/vary/lang: body and ETag follow Accept-Language, Vary says so")
    func vary() async throws {
        try await withOrigin { origin in
            let english = try await LoopbackHTTP.get(origin.port, "/vary/lang", headers: [("Accept-Language", "en")])
            let french = try await LoopbackHTTP.get(origin.port, "/vary/lang", headers: [("Accept-Language", "fr")])
            let englishAgain = try await LoopbackHTTP.get(origin.port, "/vary/lang", headers: [("Accept-Language", "en")])
            let none = try await LoopbackHTTP.get(origin.port, "/vary/lang")
            #expect(english.header("Vary") == "Accept-Language")
            #expect(english.text.contains("Accept-Language: en") && french.text.contains("Accept-Language: fr"))
            #expect(english.header("ETag") != french.header("ETag"))
            #expect(english.header("ETag") == englishAgain.header("ETag"))
            #expect(none.text.contains("Accept-Language: (none)"))
        }
    }

    @Test("/sie: the first request per target succeeds with stale-if-error, later ones fail with 500")
    func staleIfError() async throws {
        try await withOrigin { origin in
            let first = try await LoopbackHTTP.get(origin.port, "/sie/1/60?a")
            #expect(first.status == 200)
            #expect(first.header("Cache-Control") == "max-age=1, stale-if-error=60")
            for _ in 0..<2 {
                let later = try await LoopbackHTTP.get(origin.port, "/sie/1/60?a")
                #expect(later.status == 500)
                #expect(later.header("Cache-Control") == nil)
            }
            #expect(try await LoopbackHTTP.get(origin.port, "/sie/1/60?b").status == 200)
            origin.resetCounts()
            #expect(try await LoopbackHTTP.get(origin.port, "/sie/1/60?a").status == 500, "reset keeps the memory")
        }
    }

    @Test("/slow/{ms} waits at least ms, without holding up other requests")
    func slow() async throws {
        try await withOrigin { origin in
            let order = Mutex<[String]>([])
            let clock = ContinuousClock()
            let started = clock.now
            async let slowResponse: LoopbackHTTP.Response = {
                let response = try await LoopbackHTTP.get(origin.port, "/slow/600")
                order.withLock { $0.append("slow") }
                return response
            }()
            // The fast request goes once the slow one has reached the origin (no sleep).
            try await eventually("/slow/600 reached the origin") { origin.requestCount(path: "/slow/600") == 1 }
            let fast = try await LoopbackHTTP.get(origin.port, "/max-age/1")
            order.withLock { $0.append("fast") }
            let slow = try await slowResponse
            #expect(clock.now - started >= .milliseconds(600))
            #expect(fast.status == 200 && slow.status == 200)
            #expect(slow.header("Cache-Control") == "max-age=5")
            #expect(order.withLock { $0 } == ["fast", "slow"])
        }
    }

    @Test("/large/{KB} is exactly KB x 1024 deterministic bytes", arguments: [0, 1, 3, 100])
    func large(kilobytes: Int) async throws {
        try await withOrigin { origin in
            let target = "/large/\(kilobytes)?v=1"
            let response = try await LoopbackHTTP.get(origin.port, target)
            #expect(response.status == 200)
            #expect(response.body.count == kilobytes * 1024)
            #expect(response.header("Content-Length") == String(kilobytes * 1024))
            #expect(response.header("Content-Type") == "application/octet-stream")
            #expect(response.header("Cache-Control") == "max-age=60")
            if kilobytes > 0 {
                #expect(response.text.hasPrefix("DemoOrigin \(target)\n"))
                #expect(try await LoopbackHTTP.get(origin.port, target).body == response.body)
            }
        }
    }

    @Test("/large accepts the 1 GiB limit and its content is the repeating pattern")
    func largeLimit() async throws {
        try await withOrigin { origin in
            let head = try await LoopbackHTTP.send("HEAD", port: origin.port, target: "/large/1048576")
            #expect(head.status == 200 && head.header("Content-Length") == String(1024 * 1024 * 1024))
            let body = try await LoopbackHTTP.get(origin.port, "/large/2").text
            let pattern = "abcdefghijklmnopqrstuvwxyz0123456789\n"
            let filler = body.drop { $0 != "\n" }.dropFirst()
            #expect(filler.hasPrefix(pattern + pattern))
            #expect(pattern.hasPrefix(String(filler.suffix(filler.count % pattern.count))))
        }
    }

    @Test("/redirect/{code}/{N}: Location /max-age/N; only 301 and 308 are cacheable",
          arguments: [(301, true), (302, false), (307, false), (308, true)])
    func redirect(code: Int, cacheable: Bool) async throws {
        try await withOrigin { origin in
            let response = try await LoopbackHTTP.get(origin.port, "/redirect/\(code)/30")
            #expect(response.status == code)
            #expect(response.header("Location") == "/max-age/30")
            #expect(response.header("Cache-Control") == (cacheable ? "max-age=3600" : nil))
        }
    }

    @Test("/status/{code} answers that code without caching headers", arguments: [200, 404, 410, 500, 503])
    func status(code: Int) async throws {
        try await withOrigin { origin in
            let response = try await LoopbackHTTP.get(origin.port, "/status/\(code)")
            #expect(response.status == code)
            #expect(response.header("Cache-Control") == nil && response.header("ETag") == nil)
            #expect(response.header("Expires") == nil && response.header("Last-Modified") == nil)
            #expect(response.text.contains("status \(code)"))
        }
    }

    @Test("/status/204 has no body and no Content-Length")
    func noContent() async throws {
        try await withOrigin { origin in
            let response = try await LoopbackHTTP.get(origin.port, "/status/204")
            #expect(response.status == 204 && response.body.isEmpty && response.header("Content-Length") == nil)
        }
    }

    @Test("/auth: 401 with a challenge without Authorization, 200 max-age=60 with it")
    func auth() async throws {
        try await withOrigin { origin in
            let denied = try await LoopbackHTTP.get(origin.port, "/auth")
            #expect(denied.status == 401)
            #expect(denied.header("WWW-Authenticate") == "Basic realm=\"demo\"")
            let allowed = try await LoopbackHTTP.get(origin.port, "/auth", headers: [("Authorization", "Bearer t")])
            #expect(allowed.status == 200 && allowed.header("Cache-Control") == "max-age=60")
        }
    }

    @Test("/cookie sets a session cookie, private for 30 s")
    func cookie() async throws {
        try await withOrigin { origin in
            let response = try await LoopbackHTTP.get(origin.port, "/cookie")
            #expect(response.header("Set-Cookie") == "session=abc; HttpOnly")
            #expect(response.header("Cache-Control") == "private, max-age=30")
        }
    }
}
