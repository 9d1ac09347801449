@testable import CachingProxy
import DemoOrigin
import Foundation
import Testing

/// What crosses the proxy and what it keeps to itself: hop-by-hop fields, `Connection`'s
/// names, `Host`, `Via`, `X-Forwarded-For`; keep-alive and pipelining.
@Suite("Proxy: forwarding and connections", .timeLimit(.minutes(2)))
struct ForwardingTests {
    @Test("hop-by-hop fields and those Connection names stay at the proxy; end-to-end ones reach the origin")
    func hopByHopRemoved() async throws {
        try await ProxyHarness.start().run { harness in
            let response = try await harness.request(
                "/max-age/61",
                headers: [
                    "Connection: close, X-Secret", "X-Secret: hop", "Keep-Alive: timeout=5", "TE: trailers",
                    "Upgrade: websocket", "Proxy-Connection: keep-alive", "X-End-To-End: kept", "X-Forwarded-For: 203.0.113.9",
                    "Forwarded: for=203.0.113.9",
                ])
            #expect(response.status == 200)
            let sent = try #require(harness.origin.lastRequestHeaders(path: "/max-age/61"))
            let names = Set(sent.map { $0.name.lowercased() })
            for hop in ["x-secret", "keep-alive", "te", "upgrade", "proxy-connection"] {
                #expect(!names.contains(hop), "\(hop) reached the origin")
            }
            #expect(!sent.contains { $0.name.lowercased() == "connection" && $0.value.lowercased().contains("x-secret") })
            func value(_ name: String) -> String? { sent.first { $0.name.lowercased() == name }?.value }
            #expect(value("x-end-to-end") == "kept")
            #expect(value("via") == "1.1 cachescope")
            // nginx's defaults: Host is the origin's, X-Forwarded-For and Forwarded pass unchanged.
            #expect(value("host") == "127.0.0.1:\(harness.origin.port)")
            #expect(value("x-forwarded-for") == "203.0.113.9")
            #expect(value("forwarded") == "for=203.0.113.9")
            // Nothing hop-by-hop from the origin's side reaches the client either.
            #expect(response.value("Keep-Alive") == nil)
            #expect(response.value("Transfer-Encoding") == nil)
        }
    }

    @Test("a Via the client sent is kept and the proxy's own is added after it")
    func viaAppended() async throws {
        try await ProxyHarness.start().run { harness in
            _ = try await harness.request("/max-age/62", headers: ["Via: 1.0 fred"])
            let sent = try #require(harness.origin.lastRequestHeaders(path: "/max-age/62"))
            let via = sent.filter { $0.name.lowercased() == "via" }.map(\.value).joined(separator: ", ")
            #expect(via == "1.0 fred, 1.1 cachescope")
        }
    }

    @Test("pipelined requests on one connection are answered in order, and the connection stays open")
    func pipelining() async throws {
        try await ProxyHarness.start().run { harness in
            let host = "Host: 127.0.0.1:\(harness.proxy.port)"
            let text = ["/max-age/60", "/max-age/61", "/slow/50", "/max-age/60"]
                .map { "GET \($0) HTTP/1.1\r\n\(host)\r\n\r\n" }.joined()
            let exchange = try await RawHTTP.send(text, port: harness.proxy.port, expecting: 4)
            try #require(exchange.responses.count == 4)
            #expect(exchange.responses.allSatisfy { $0.status == 200 })
            #expect(exchange.responses[0].body == exchange.responses[3].body)
            #expect(exchange.responses[0].body != exchange.responses[1].body)
            #expect(ProxyHarness.cacheStatus(exchange.responses[3]).contains("hit"))
            #expect(!exchange.closed)
        }
    }

    @Test("an Upgrade request is answered without upgrading (Upgrade is hop-by-hop), and its connection closes")
    func upgradeNotForwarded() async throws {
        try await ProxyHarness.start().run { harness in
            let exchange = try await RawHTTP.send(
                "GET /max-age/63 HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n", port: harness.proxy.port,
                waitForClose: true, timeout: .seconds(5))
            #expect(exchange.responses.first?.status == 200)
            #expect(exchange.closed)
            let sent = try #require(harness.origin.lastRequestHeaders(path: "/max-age/63"))
            #expect(!sent.contains { $0.name.lowercased() == "upgrade" })
        }
    }

    @Test("HTTP/1.0 without keep-alive gets Connection: close and the connection is closed")
    func http10Closes() async throws {
        try await ProxyHarness.start().run { harness in
            let exchange = try await RawHTTP.send(
                "GET /max-age/60 HTTP/1.0\r\n\r\n", port: harness.proxy.port, waitForClose: true)
            try #require(exchange.responses.count == 1)
            #expect(exchange.responses[0].status == 200)
            #expect(exchange.responses[0].value("Connection") == "close")
            #expect(exchange.closed)
        }
    }

    @Test("a request with Expect: 100-continue gets 100 Continue, then its answer")
    func expectContinue() async throws {
        try await ProxyHarness.start().run { harness in
            let head = "POST /items/3 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n"
            let exchange = try await RawHTTP.send(
                [Array(head.utf8), Array("{}".utf8)], pause: .milliseconds(100), port: harness.proxy.port)
            try #require(exchange.responses.count == 1)
            #expect(exchange.responses[0].status < 400)
            let sent = try #require(harness.origin.lastRequestHeaders(path: "/items/3"))
            #expect(!sent.contains { $0.name.lowercased() == "expect" })
        }
    }

    @Test("no 100 Continue for an HTTP/1.0 client (it may take it for the answer) or a request without a body; the answer comes all the same")
    func noInterimWhereNotAllowed() async throws {
        try await ProxyHarness.start().run { harness in
            let old = try await RawHTTP.send(
                "POST /items/4 HTTP/1.0\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n{}", port: harness.proxy.port, waitForClose: true)
            #expect(old.interimStatuses.isEmpty, "\(String(decoding: old.received, as: UTF8.self).prefix(200))")
            #expect((old.responses.first?.status ?? 500) < 400)
            let bodiless = try await RawHTTP.send(
                "GET /max-age/64 HTTP/1.1\r\nHost: x\r\nConnection: close\r\nExpect: 100-continue\r\n\r\n", port: harness.proxy.port)
            #expect(bodiless.interimStatuses.isEmpty)
            #expect(bodiless.responses.first?.status == 200)
        }
    }

    @Test("an HTTP/1.0 request with Transfer-Encoding is refused (its framing is faulty, RFC 9112 §6.1) and the connection closes")
    func transferEncodingInHTTP10() async throws {
        try await ProxyHarness.start().run { harness in
            let exchange = try await RawHTTP.send(
                "POST /items/5 HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\nGET /max-age/60 HTTP/1.0\r\n\r\n",
                port: harness.proxy.port, waitForClose: true)
            #expect(exchange.responses.count == 1)
            #expect(exchange.responses.first?.status == 400)
            #expect(exchange.responses.first?.text.contains("an HTTP/1.0 request cannot have Transfer-Encoding") == true)
            #expect(exchange.closed)
            #expect(harness.origin.totalRequestCount() == 0)
        }
    }

    @Test("Proxy-Authorization is for the proxy: it does not reach the origin")
    func proxyAuthorizationNotForwarded() async throws {
        try await ProxyHarness.start().run { harness in
            _ = try await RawHTTP.send(
                "GET /max-age/65 HTTP/1.1\r\nHost: x\r\nConnection: close\r\nProxy-Authorization: Basic Zm9vOmJhcg==\r\n\r\n", port: harness.proxy.port)
            let sent = try #require(harness.origin.lastRequestHeaders(path: "/max-age/65"))
            #expect(!sent.contains { $0.name.lowercased() == "proxy-authorization" })
        }
    }
}
