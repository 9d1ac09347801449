import CacheStore
@testable import CachingClient
@testable import DemoOrigin
import Foundation
import HTTPCaching
import HTTPTypes
import NIOCore
import Testing

/// `stream(for:body:length:policy:)` against the real demo origin: what fits the store comes
/// back complete and is stored; what does not streams and is not.
@Suite("Streaming through the client")
struct ClientStreamingTests {
    /// 4 MiB: above the default store's per-entry limit (5 % of 32 MiB of memory, no disk).
    static let largePath = "/large/4096"

    @Test("a body larger than the store keeps streams, byte for byte, is not stored, and the reason says why")
    func largeBodyStreams() async throws {
        try await Harness.start().run { harness in
            let request = try #require(CachingClient.request(url: harness.url(Self.largePath)))
            let streamed = try await harness.client.stream(for: request)
            guard case .streaming(let parts) = streamed.body else {
                Issue.record("a 4 MiB body came back complete")
                return
            }
            var received: [UInt8] = []
            for try await part in parts { received += part.readableBytesView }
            let expected = GeneratedBody(target: Self.largePath, size: 4 << 20)
            #expect(received == expected.bytes(0..<expected.size))
            #expect(streamed.result.outcome == .miss)
            #expect(streamed.result.reason.contains("larger than the store keeps"))
            #expect(streamed.result.timeToLive == nil)
            #expect(harness.client.store.stats().entryCount == 0)
        }
    }

    @Test("a body within the store's limit comes back complete and is stored")
    func smallBodyComplete() async throws {
        try await Harness.start().run { harness in
            let request = try #require(CachingClient.request(url: harness.url("/large/64")))
            let first = try await harness.client.stream(for: request)
            guard case .complete(let body) = first.body else {
                Issue.record("a 64 KiB body was streamed")
                return
            }
            #expect(body.count == 64 << 10)
            #expect(first.result.outcome == .miss)
            let second = try await harness.client.stream(for: request)
            #expect(second.result.outcome == .hit)
            guard case .complete(let again) = second.body else {
                Issue.record("a stored body was streamed")
                return
            }
            #expect(again == body)
        }
    }

    @Test("a request body is sent as it is read, with its length or chunked")
    func requestBody() async throws {
        try await Harness.start().run { harness in
            let parts = [ByteBuffer(string: "first part, "), ByteBuffer(string: "second part")]
            var sent = ReceivedBody()
            for part in parts { part.withUnsafeReadableBytes { sent.append($0) } }
            let length = parts.map(\.readableBytes).reduce(0, +)
            for declared in [length, nil] {
                let request = try #require(CachingClient.request(url: harness.url("/items/streamed"), method: .post))
                let streamed = try await harness.client.stream(for: request, body: BodyStream(complete: parts), length: declared)
                guard case .complete(let answer) = streamed.body else {
                    Issue.record("a short answer was streamed")
                    return
                }
                #expect(String(decoding: answer, as: UTF8.self).contains("received \(sent.summary)"))
            }
        }
    }
}
