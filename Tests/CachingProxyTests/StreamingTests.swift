import CacheStore
import CachingClient
@testable import CachingProxy
@testable import DemoOrigin
import Foundation
import Testing

/// Bodies through the proxy as they arrive: larger than the store keeps, they stream in both
/// directions with the proxy's memory bounded (it runs in this process, so this process's
/// resident memory is the bound); within it, they are collected and stored.
@Suite("Streaming bodies", .serialized)
struct StreamingTests {
    /// 100 MiB: far above the harness store's per-entry limit (5 % of 32 MiB of memory).
    static let largeSize = 100 << 20
    /// What the process may grow by while 100 MiB go through: a body held whole would take
    /// more than the whole budget.
    static let memoryBudget = 64 << 20

    /// Byte `i` of the demo origin's `/large/{KB}` body for `target`.
    static func largeByte(target: String) -> @Sendable (Int) -> UInt8 {
        let body = GeneratedBody(target: target, size: Int.max)
        let firstLine = body.firstLine
        let pattern = GeneratedBody.pattern
        return { index in index < firstLine.count ? firstLine[index] : pattern[(index - firstLine.count) % pattern.count] }
    }

    @Test("a 100 MiB response larger than the store keeps streams through, every byte intact, memory bounded, not stored")
    func largeResponse() async throws {
        try await ProxyHarness.start().run { harness in
            let target = "/large/\(Self.largeSize / 1024)"
            let exchange = try await StreamingHTTP.exchange(
                port: harness.proxy.port, head: "GET \(target) HTTP/1.1\r\nHost: proxy\r\n\r\n",
                expected: Self.largeByte(target: target))
            #expect(exchange.status == 200)
            #expect(exchange.value("Content-Length") == String(Self.largeSize))
            #expect(exchange.bodyBytes == Self.largeSize)
            #expect(exchange.firstMismatch == nil)
            #expect(exchange.peakGrowth < Self.memoryBudget, "grew by \(exchange.peakGrowth >> 20) MiB")
            // Storable by its headers (max-age=60), but not stored: no `stored`, no `ttl`.
            #expect(exchange.value("Cache-Status") == "cachescope;fwd=uri-miss;fwd-status=200")
            #expect(harness.client.store.stats().entryCount == 0)
            let record = try #require(await harness.log.records(count: 1).last)
            #expect(record.reason.contains("larger than the store keeps"))
            #expect(record.bytes == Self.largeSize)
        }
    }

    @Test("a 100 MiB request body streams to the origin, which receives every byte, with memory bounded")
    func largeUpload() async throws {
        try await ProxyHarness.start(configure: { $0.maximumRequestBodyBytes = 256 << 20 }).run { harness in
            let part = (0..<(64 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
            let parts = Self.largeSize / part.count
            var sent = ReceivedBody()
            for _ in 0..<parts { part.withUnsafeBytes { sent.append($0) } }
            let exchange = try await StreamingHTTP.exchange(
                port: harness.proxy.port,
                head: "POST /items/upload HTTP/1.1\r\nHost: proxy\r\nContent-Length: \(Self.largeSize)\r\n\r\n",
                uploadPart: part, uploadParts: parts)
            #expect(exchange.status == 200)
            let text = String(decoding: exchange.bodyPrefix, as: UTF8.self)
            #expect(text.contains("received \(sent.summary)"), "origin said: \(text)")
            #expect(exchange.peakGrowth < Self.memoryBudget, "grew by \(exchange.peakGrowth >> 20) MiB")
            #expect(harness.origin.requestCount(path: "/items/upload") == 1)
        }
    }

    @Test("a chunked request body reaches the origin whole, chunked")
    func chunkedUpload() async throws {
        try await ProxyHarness.start().run { harness in
            let chunks = ["hello, ", "streamed ", "world"]
            var sent = ReceivedBody()
            for chunk in chunks { Array(chunk.utf8).withUnsafeBytes { sent.append($0) } }
            let body = chunks.map { String($0.utf8.count, radix: 16) + "\r\n" + $0 + "\r\n" }.joined() + "0\r\n\r\n"
            let request = "POST /items/chunked HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n" + body
            let exchange = try await RawHTTP.send(request, port: harness.proxy.port)
            let response = try #require(exchange.responses.first)
            #expect(response.status == 200)
            #expect(response.text.contains("received \(sent.summary)"), "origin said: \(response.text)")
        }
    }

    @Test("a client that leaves mid-body ends the origin fetch and leaves nothing in the store")
    func clientLeaves() async throws {
        try await ProxyHarness.start().run { harness in
            let target = "/large/\(Self.largeSize / 1024)"
            let exchange = try await StreamingHTTP.exchange(
                port: harness.proxy.port, head: "GET \(target) HTTP/1.1\r\nHost: proxy\r\n\r\n", stopAfter: 1 << 20)
            #expect(exchange.status == 200 && exchange.bodyBytes < Self.largeSize)
            var waited = 0
            while harness.proxy.registry.requestsInFlight > 0, waited < 100 {
                try await Task.sleep(for: .milliseconds(50))
                waited += 1
            }
            #expect(harness.proxy.registry.requestsInFlight == 0)
            #expect(harness.client.store.stats().entryCount == 0)
            let record = try #require(await harness.log.records(count: 1).last)
            #expect(record.reason.contains("broke off"))
            // The proxy goes on serving.
            let next = try await harness.request("/max-age/60")
            #expect(next.status == 200)
        }
    }

    @Test("a body within the store's limit is collected while it arrives and stored at its end")
    func storedWhenWithinLimit() async throws {
        try await ProxyHarness.start().run { harness in
            let first = try await harness.request("/large/1024")
            #expect(first.body.count == 1 << 20)
            #expect(ProxyHarness.cacheStatus(first) == "cachescope;fwd=uri-miss;fwd-status=200;stored;ttl=60")
            let second = try await harness.request("/large/1024")
            #expect(ProxyHarness.cacheStatus(second) == "cachescope;hit;ttl=60")
            #expect(second.body == first.body)
            #expect(harness.origin.requestCount(path: "/large/1024") == 1)
        }
    }

    @Test("a HEAD is answered from a stored GET, with the GET's header fields and no body")
    func headFromStoredGet() async throws {
        try await ProxyHarness.start().run { harness in
            let get = try await harness.request("/max-age/60")
            let head = try await harness.request("/max-age/60", method: "HEAD")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(ProxyHarness.cacheStatus(head) == "cachescope;hit;ttl=60")
            #expect(head.value("Content-Length") == String(get.body.count))
            #expect(head.value("ETag") == get.value("ETag"))
            #expect(head.value("Age") != nil)
            #expect(harness.origin.requestCount(path: "/max-age/60") == 1)
        }
    }

    @Test("a HEAD miss stores the GET response, which then answers a GET")
    func headMissStoresGet() async throws {
        try await ProxyHarness.start().run { harness in
            let head = try await harness.request("/max-age/30", method: "HEAD")
            #expect(head.status == 200 && head.body.isEmpty)
            #expect(ProxyHarness.cacheStatus(head) == "cachescope;fwd=uri-miss;fwd-status=200;stored;ttl=30")
            let get = try await harness.request("/max-age/30")
            #expect(ProxyHarness.cacheStatus(get) == "cachescope;hit;ttl=30")
            #expect(!get.body.isEmpty)
            #expect(head.value("Content-Length") == String(get.body.count))
            #expect(harness.origin.requestCount(path: "/max-age/30") == 1)
            #expect(await harness.log.records(count: 2).map(\.method) == ["HEAD", "GET"])
        }
    }
}
