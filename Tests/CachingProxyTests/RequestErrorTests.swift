@testable import CachingProxy
import DemoOrigin
import Foundation
import NIOCore
import NIOPosix
import Testing

/// Requests the proxy refuses itself, and clients that misbehave: each gets the status that
/// says what is wrong, and the proxy keeps serving everybody else.
@Suite("Proxy: bad requests and misbehaving clients", .timeLimit(.minutes(2)))
struct RequestErrorTests {
    @Test("a request that is not HTTP gets 400 (no-store, and a line in the access log) and the connection closes")
    func malformed() async throws {
        try await ProxyHarness.start().run { harness in
            let exchange = try await RawHTTP.send("HELLO THERE\r\n\r\n", port: harness.proxy.port, waitForClose: true)
            #expect(exchange.responses.first?.status == 400)
            #expect(exchange.responses.first?.value("Cache-Control") == "no-store")
            #expect(exchange.responses.first?.value("Date") != nil, "RFC 9110 §6.6.1: a server with a clock sends Date")
            #expect(exchange.closed)
            let record = try #require(await harness.log.records(count: 1).first)
            #expect(record.status == 400 && record.outcome == "rejected")
            #expect(record.commonLogLine.contains(#"] "-" 400 "#) && record.commonLogLine.contains("not valid HTTP/1.1"), "\(record.commonLogLine)")
            #expect(harness.origin.totalRequestCount() == 0)
            // The proxy still serves.
            #expect(try await harness.request("/max-age/60").status == 200)
        }
    }

    /// NIO's parser cannot tell `GET /path` and a line end from the start of an HTTP/1.x
    /// request line, and would wait for the rest until the header-read timeout (30 s).
    @Test("an HTTP/0.9 request line (no version) gets 400 at once, however it arrives", arguments: [
        ["GET /max-age/60\r\n"], ["GET /max", "-age/60", "\n"], ["\r\n\r\nGET /max-age/60\r\n"],
        // What follows the refused line is dropped, not parsed into a second refusal.
        ["GET /max", "-age/60\r\n", "Host: x\r\n\r\nGET / HTTP/1.1\r\n\r\n"],
    ])
    func versionlessRequestLine(parts: [String]) async throws {
        try await ProxyHarness.start().run { harness in
            let started = ContinuousClock.now
            let exchange = try await RawHTTP.send(parts.map { Array($0.utf8) }, pause: .milliseconds(20), port: harness.proxy.port, waitForClose: true)
            let response = try #require(exchange.responses.first)
            #expect(response.status == 400)
            #expect(response.text.contains("the request line 'GET /max-age/60' has no HTTP version"), "\(response.text)")
            #expect(exchange.closed)
            #expect(ContinuousClock.now - started < .seconds(5))
            let record = try #require(await harness.log.records(count: 1).first)
            #expect(record.status == 400 && record.commonLogLine.contains("HTTP/0.9"), "\(record.commonLogLine)")
            #expect(exchange.responses.count == 1)
            try await Task.sleep(for: .milliseconds(200))
            #expect(harness.log.records.count == 1, "one refusal, one line: \(harness.log.records.map(\.commonLogLine))")
            #expect(harness.origin.totalRequestCount() == 0)
        }
    }

    @Test("a request line arriving a few bytes at a time is served, and so are the requests after it")
    func requestLineInPieces() async throws {
        try await ProxyHarness.start().run { harness in
            let request = "GET /max-age/60 HTTP/1.1\r\nHost: x\r\n\r\n"
            let pieces = stride(from: 0, to: request.utf8.count, by: 3).map { Array(Array(request.utf8)[$0..<min($0 + 3, request.utf8.count)]) }
            let exchange = try await RawHTTP.send(
                pieces + [Array(request.utf8)], pause: .milliseconds(20), port: harness.proxy.port, expecting: 2)
            #expect(exchange.responses.map(\.status) == [200, 200])
        }
    }

    /// NIO's parser reports a request cut off by the client's close as an error; there is
    /// nobody to answer, and the access log must not show a 400 nobody received.
    @Test("a client that hangs up in the middle of its request gets no answer and no line in the access log")
    func clientHangsUp() async throws {
        try await ProxyHarness.start().run { harness in
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: harness.proxy.port).get()
            try await channel.writeAndFlush(ByteBuffer(string: "POST /max-age/60 HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc")).get()
            try await channel.close().get()
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await harness.request("/max-age/60").status == 200)
            let records = await harness.log.records(count: 1)
            #expect(records.map(\.status) == [200], "\(records.map(\.commonLogLine))")
        }
    }

    @Test("an HTTP/1.1 request without Host gets 400 naming the problem")
    func missingHost() async throws {
        try await ProxyHarness.start().run { harness in
            let exchange = try await RawHTTP.send("GET /max-age/60 HTTP/1.1\r\n\r\n", port: harness.proxy.port, waitForClose: true)
            let response = try #require(exchange.responses.first)
            #expect(response.status == 400)
            #expect(response.text.contains("exactly one Host"))
            #expect(harness.origin.totalRequestCount() == 0)
        }
    }

    /// RFC 9112 §3.2: a Host field with an invalid value MUST get 400.
    @Test("a Host value that is not host[:port] gets 400 naming it", arguments: ["a b", "x:80a", "[::1", "ex@mple", "x:1:2", "[zz]", "[v.x]", "[vz.x]"])
    func invalidHost(value: String) async throws {
        try await ProxyHarness.start().run { harness in
            let exchange = try await RawHTTP.send(
                "GET /max-age/60 HTTP/1.1\r\nHost: \(value)\r\n\r\n", port: harness.proxy.port, waitForClose: true)
            let response = try #require(exchange.responses.first)
            #expect(response.status == 400)
            #expect(response.text.contains("the Host field '\(value)' is not host[:port]"), "\(response.text)")
            #expect(harness.origin.totalRequestCount() == 0)
        }
    }

    @Test("Host values of every valid shape are served", arguments: [
        "x", "127.0.0.1:8080", "[::1]:80", "[::1]", "shop.example:", "a-b_c~d%41", "EXAMPLE.com.", "[v1.fe:x]", "[fe80::1%25eth0]:8080",
    ])
    func validHost(value: String) {
        #expect(RequestLimits.isHostAndPort(value))
    }

    /// proxy.md promised 431 past 256 fields; only the section's bytes were checked.
    @Test("more than 256 header fields get 431, naming the count")
    func tooManyFields() async throws {
        try await ProxyHarness.start().run { harness in
            let fields = (0..<300).map { "X-F\($0): 1\r\n" }.joined()
            let exchange = try await RawHTTP.send("GET /max-age/60 HTTP/1.1\r\nHost: x\r\n\(fields)\r\n", port: harness.proxy.port, waitForClose: true)
            let response = try #require(exchange.responses.first)
            #expect(response.status == 431)
            #expect(response.text.contains("the request has 301 header fields; the proxy accepts at most 256"), "\(response.text)")
            #expect(harness.origin.totalRequestCount() == 0)
        }
    }

    /// RFC 9112 §6.1: a transfer coding the server does not understand SHOULD get 501; the
    /// proxy dropped `gzip` and sent the coded bytes on as plain.
    @Test("a transfer coding other than chunked gets 501, naming it")
    func unknownTransferCoding() async throws {
        try await ProxyHarness.start().run { harness in
            let exchange = try await RawHTTP.send(
                "POST /items/1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", port: harness.proxy.port,
                waitForClose: true)
            let response = try #require(exchange.responses.first)
            #expect(response.status == 501)
            #expect(response.text.contains("the transfer coding 'gzip' is not supported"), "\(response.text)")
            #expect(harness.origin.totalRequestCount() == 0)
        }
    }

    /// RFC 9110 §15.6.2: an unrecognised method is 501. NIO's parser knows a fixed set of
    /// methods and refuses the rest before the proxy sees the request.
    @Test("an extension method the parser does not know gets 501 naming it; a line that is no request line stays 400")
    func unknownMethod() async throws {
        try await ProxyHarness.start().run { harness in
            let exchange = try await RawHTTP.send("FOO /items/1 HTTP/1.1\r\nHost: x\r\n\r\n", port: harness.proxy.port, waitForClose: true)
            let response = try #require(exchange.responses.first)
            #expect(response.status == 501)
            #expect(response.text.contains("the method 'FOO' is not one this proxy can forward"), "\(response.text)")
            let tls = try await RawHTTP.send([[0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0x00, 0x00, 0x01, 0x00]], port: harness.proxy.port, waitForClose: true)
            #expect(tls.responses.first?.status == 400)
            #expect(harness.origin.totalRequestCount() == 0)
        }
    }

    @Test("a request target over the limit gets 414")
    func uriTooLong() async throws {
        try await ProxyHarness.start { $0.maximumURILength = 1024 }.run { harness in
            let path = "/max-age/60?" + String(repeating: "a", count: 2000)
            let exchange = try await RawHTTP.send(
                "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n", port: harness.proxy.port, waitForClose: true)
            #expect(exchange.responses.first?.status == 414)
            #expect(exchange.responses.first?.value("Date") != nil, "the proxy's own answers have a Date too")
            #expect(harness.origin.totalRequestCount() == 0)
        }
    }

    @Test("a header section over the limit gets 431, however it is over", arguments: [4_000, 500_000])
    func headersTooLarge(size: Int) async throws {
        try await ProxyHarness.start { $0.maximumHeaderBytes = 2048 }.run { harness in
            let big = "X-Big: " + String(repeating: "b", count: size)
            let exchange = try await RawHTTP.send(
                "GET /max-age/60 HTTP/1.1\r\nHost: x\r\n\(big)\r\n\r\n", port: harness.proxy.port, waitForClose: true)
            #expect(exchange.responses.first?.status == 431)
            #expect(harness.origin.totalRequestCount() == 0)
        }
    }

    @Test("a body over the limit gets 413")
    func bodyTooLarge() async throws {
        try await ProxyHarness.start { $0.maximumRequestBodyBytes = 100 }.run { harness in
            let body = String(repeating: "x", count: 1000)
            let exchange = try await RawHTTP.send(
                "POST /items/1 HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n\(body)", port: harness.proxy.port,
                waitForClose: true)
            #expect(exchange.responses.first?.status == 413)
            #expect(harness.origin.requestCount(path: "/items/1") == 0)
        }
    }

    @Test("CONNECT is not forwarded: 501")
    func connect() async throws {
        try await ProxyHarness.start().run { harness in
            let exchange = try await RawHTTP.send(
                "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", port: harness.proxy.port)
            #expect(exchange.responses.first?.status == 501)
        }
    }

    @Test("a client that does not finish its request head in time is disconnected")
    func headerReadTimeout() async throws {
        try await ProxyHarness.start { $0.headerReadTimeout = .milliseconds(300) }.run { harness in
            let started = ContinuousClock.now
            let exchange = try await RawHTTP.send(
                "GET /max-age/60 HTTP/1.1\r\nHost: x\r\nX-Slow: ", port: harness.proxy.port, waitForClose: true,
                timeout: .seconds(5))
            #expect(exchange.closed)
            #expect(exchange.responses.isEmpty)
            #expect(ContinuousClock.now - started < .seconds(4))
            #expect(harness.origin.totalRequestCount() == 0)
        }
    }

    @Test("the header-read timeout counts from each request's answer: a keep-alive client that keeps asking stays, an idle one is closed")
    func headerReadTimeoutMovesWithEachRequest() async throws {
        try await ProxyHarness.start { $0.headerReadTimeout = .milliseconds(800) }.run { harness in
            let request = Array("GET /max-age/60 HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
            let started = ContinuousClock.now
            // Seven requests 250 ms apart: 1.5 s in all, almost two timeouts, never 800 ms idle.
            let exchange = try await RawHTTP.send(
                Array(repeating: request, count: 7), pause: .milliseconds(250), port: harness.proxy.port, expecting: 7,
                waitForClose: true, timeout: .seconds(6))
            #expect(exchange.responses.map(\.status) == Array(repeating: 200, count: 7))
            #expect(exchange.closed, "closed once idle for the timeout")
            #expect(ContinuousClock.now - started < .seconds(5))
        }
    }

    @Test("past the connection limit a client gets 503 at once; the others are still served")
    func connectionLimit() async throws {
        try await ProxyHarness.start { $0.maximumConnections = 2 }.run { harness in
            let port = harness.proxy.port
            // Two connections that send half a request and wait.
            let holders = (0..<2).map { _ in
                Task { try await RawHTTP.send("GET /max-age/60 HTTP/1.1\r\n", port: port, waitForClose: true, timeout: .seconds(3)) }
            }
            var waited = 0
            while harness.proxy.connectionCount < 2, waited < 500 {
                try await Task.sleep(for: .milliseconds(10))  // bounded: until both are counted
                waited += 1
            }
            try #require(harness.proxy.connectionCount == 2)
            let refused = try await RawHTTP.send("GET /max-age/60 HTTP/1.1\r\nHost: x\r\n\r\n", port: port, waitForClose: true)
            #expect(refused.responses.first?.status == 503)
            #expect(refused.responses.first?.value("Date") != nil && refused.responses.first?.value("Cache-Control") == "no-store")
            for holder in holders { holder.cancel() }
        }
    }
}
