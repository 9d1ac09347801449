import CacheStore
import CachingClient
@testable import CachingProxy
import DemoOrigin
import Foundation
import NIOCore
import Testing

/// What the proxy does once it has said `Connection: close` (RFC 9112 §9.6: the server must not
/// process further requests on the connection), and how a body that ends at the close ends
/// when it breaks off.
@Suite("Proxy: after Connection: close", .timeLimit(.minutes(2)))
struct ConnectionCloseTests {
    /// A POST pipelined after a request with `Connection: close` reached the origin (its side
    /// effect done, its answer never sent), and the client got a 400 it never asked for.
    @Test("requests pipelined after Connection: close are neither forwarded nor answered")
    func pipelinedAfterClose() async throws {
        try await ProxyHarness.start().run { harness in
            let text =
                "GET /max-age/70 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                + "POST /items/5 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"
                + "GET /max-age/71 HTTP/1.1\r\nHost: x\r\n\r\n"
            let exchange = try await RawHTTP.send(text, port: harness.proxy.port, expecting: 3, waitForClose: true)
            #expect(exchange.responses.map(\.status) == [200], "one answer, to the request before the close")
            #expect(exchange.closed)
            #expect(harness.origin.requestCount(path: "/items/5") == 0, "the POST never reached the origin")
            #expect(harness.origin.requestCount(path: "/max-age/71") == 0)
            try await Task.sleep(for: .milliseconds(200))
            #expect(harness.log.records.map(\.status) == [200], "the access log has only the answer sent")
        }
    }

    /// A stop (SIGTERM) during a slow request: its answer says `Connection: close`, and a POST
    /// pipelined behind it was forwarded after the answer, then dropped.
    @Test("a request pipelined behind one answered during a stop is not forwarded")
    func pipelinedDuringStop() async throws {
        try await ProxyHarness.start().run { harness in
            let text =
                "GET /slow/600 HTTP/1.1\r\nHost: x\r\n\r\n"
                + "POST /items/6 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"
            let port = harness.proxy.port
            let exchange = Task { try await RawHTTP.send(text, port: port, expecting: 2, waitForClose: true) }
            var waited = 0
            while harness.proxy.registry.requestsInFlight == 0, waited < 500 {
                try await Task.sleep(for: .milliseconds(10))  // bounded: until the slow request is under way
                waited += 1
            }
            await harness.proxy.stop()
            let answered = try await exchange.value
            #expect(answered.responses.map(\.status) == [200])
            #expect(answered.responses.first?.value("Connection") == "close")
            #expect(harness.origin.requestCount(path: "/items/6") == 0, "the POST never reached the origin")
        }
    }

    /// A body with no length sent to an HTTP/1.0 client ends at the close: when the origin's
    /// body broke off, an orderly close made the part received look like the whole.
    @Test("an HTTP/1.0 body without a length that breaks off ends with a reset, not an orderly close")
    func closeDelimitedBreakOff() async throws {
        // Chunked and past what the default store keeps (1.6 MiB): streamed through. The
        // origin sends 2 MiB of it and closes without the last chunk.
        let size = 2 << 20
        let answer = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + String(size, radix: 16) + "\r\n"
            + String(repeating: "a", count: size) + "\r\n"
        let origin = try await RawOrigin.start(answer: answer)
        try await ProxyHarness.inFront(of: origin.baseURL, configuration: .proxy(store: StoreConfiguration()), stopOrigin: origin.stop) { proxy in
            let error = await #expect(throws: (any Error).self, "the client is told the body broke off") {
                let exchange = try await RawHTTP.send("GET /big HTTP/1.0\r\n\r\n", port: proxy.port, waitForClose: true)
                Issue.record("an orderly close after \(exchange.received.count) bytes")
            }
            #expect((error as? IOError)?.errnoCode == ECONNRESET, "a reset, not a time-out: \(String(describing: error))")
        }
    }
}
