@testable import CachingProxy
import DemoOrigin
import Foundation
import Testing

/// An upload's time: the request timeout counted from when its body was sent (each part as
/// long after the one before), not from the request's start — and a client that stops
/// sending told apart from an origin that does not answer (a hunt of 27 November).
@Suite("Proxy: slow uploads", .timeLimit(.minutes(2)))
struct SlowUploadTests {
    @Test("an upload that takes longer than the request timeout, but keeps arriving, reaches the origin whole and is answered")
    func slowButSteady() async throws {
        try await ProxyHarness.start(requestTimeout: .seconds(1)).run { harness in
            let head = "POST /items/3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 8\r\n\r\n"
            let parts = [Array(head.utf8)] + "abcdefgh".utf8.map { [$0] }
            // Eight bytes 300 ms apart: 2.4 s in all, past the 1 s timeout; no gap reaches it.
            let exchange = try await RawHTTP.send(parts, pause: .milliseconds(300), port: harness.proxy.port, timeout: .seconds(20))
            let response = try #require(exchange.responses.first)
            #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
            #expect(String(decoding: response.body, as: UTF8.self).contains("8 bytes"), "\(String(decoding: response.body, as: UTF8.self))")
        }
    }

    @Test("a client that stops sending its body gets 408 naming that, and the connection closes; not a 504 blaming the origin")
    func stalledClient() async throws {
        try await ProxyHarness.start(requestTimeout: .seconds(1)).run { harness in
            let text = "POST /items/4 HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123456789"
            let exchange = try await RawHTTP.send(text, port: harness.proxy.port, waitForClose: true, timeout: .seconds(20))
            let response = try #require(exchange.responses.first)
            #expect(response.status == 408)
            #expect(String(decoding: response.body, as: UTF8.self).contains("the request's body stopped arriving"))
            #expect(exchange.closed)
        }
    }
}
