@testable import CachingProxy
import DemoOrigin
import Foundation
import Testing

/// What a client sees when the origin fails: 502 or 504, or the stored response where
/// `stale-if-error` allows it.
@Suite("Proxy: origin failures", .timeLimit(.minutes(2)))
struct OriginFailureTests {
    @Test("the origin down and nothing stored: 502 with a Cache-Status saying why")
    func originDown() async throws {
        try await ProxyHarness.start().run { harness in
            try await harness.origin.stop()
            let response = try await harness.request("/max-age/60")
            #expect(response.status == 502)
            #expect(ProxyHarness.cacheStatus(response) == "cachescope;fwd=miss;detail=origin-unreachable")
        }
    }

    @Test("the origin down but stale-if-error allows the stale response: it is served, marked fwd=stale")
    func staleIfErrorWhenDown() async throws {
        try await ProxyHarness.start().run { harness in
            let first = try await harness.request("/sie/1/60")  // max-age=1, stale-if-error=60
            #expect(first.status == 200)
            harness.clock.advance(by: 5)
            try await harness.origin.stop()
            let stale = try await harness.request("/sie/1/60")
            #expect(stale.status == 200)
            #expect(stale.body == first.body)
            #expect(ProxyHarness.cacheStatus(stale) == "cachescope;fwd=stale;ttl=-4;detail=stale-if-error")
            #expect(stale.value("Age") == "5")
        }
    }

    @Test("the origin answers 500 and stale-if-error allows the stale response")
    func staleIfErrorOn500() async throws {
        try await ProxyHarness.start().run { harness in
            _ = try await harness.request("/sie/1/60")
            harness.clock.advance(by: 5)
            let stale = try await harness.request("/sie/1/60")  // the origin answers 500 from now on
            #expect(stale.status == 200)
            #expect(harness.origin.requestCount(path: "/sie/1/60") == 2)
        }
    }

    @Test("past stale-if-error's window the origin's failure is passed on")
    func staleIfErrorExpired() async throws {
        try await ProxyHarness.start().run { harness in
            _ = try await harness.request("/sie/1/10")
            harness.clock.advance(by: 60)
            try await harness.origin.stop()
            #expect(try await harness.request("/sie/1/10").status == 502)
        }
    }

    @Test("an origin slower than the request timeout: 504")
    func originTimeout() async throws {
        try await ProxyHarness.start(requestTimeout: .milliseconds(300)).run { harness in
            let response = try await harness.request("/slow/3000")
            #expect(response.status == 504)
            #expect(ProxyHarness.cacheStatus(response) == "cachescope;fwd=miss;detail=origin-timeout")
        }
    }

    @Test("stop() lets a request in flight finish, with Connection: close")
    func gracefulStop() async throws {
        let harness = try await ProxyHarness.start()
        try await harness.run { harness in
            let port = harness.proxy.port
            let slow = Task { try await RawHTTP.send("GET /slow/400 HTTP/1.1\r\nHost: x\r\n\r\n", port: port, waitForClose: true) }
            var waited = 0
            while harness.origin.requestCount(path: "/slow/400") == 0, waited < 500 {
                try await Task.sleep(for: .milliseconds(10))  // bounded: until the request reached the origin
                waited += 1
            }
            await harness.proxy.stop()
            let exchange = try await slow.value
            #expect(exchange.responses.first?.status == 200)
            #expect(exchange.responses.first?.value("Connection") == "close")
        }
    }
}
