import CacheEvents
import CachingClient
@testable import CachingProxy
import DemoOrigin
import Foundation
import Testing

/// The served events count what the proxy's client got: the summary, the metrics and the
/// dashboard had counted the stored 200 whole for a 304, a 206, a 416 and a HEAD (a hunt of
/// 27 November).
@Suite("Proxy: served events count what the client got", .timeLimit(.minutes(2)))
struct ServedCountsTests {
    @Test("a 304 to the client's conditional request, a 206, a 416 and a HEAD are counted as sent, with the bytes sent")
    func countedAsSent() async throws {
        for immediate in [false, true] {
            try await ProxyHarness.start(configure: { $0.answersHitsOnEventLoop = immediate }).run { harness in
                let subscription = await harness.client.subscribe(.lossless(bufferSize: 10_000), snapshot: false)
                let whole = try await harness.request("/large/4")  // 4096 bytes, max-age=60, ETag
                let etag = try #require(whole.value("ETag"))
                #expect(try await harness.request("/large/4", headers: ["If-None-Match: \(etag)"]).status == 304)
                #expect(try await harness.request("/large/4", headers: ["Range: bytes=100-199"]).status == 206)
                let past = try await harness.request("/large/4", headers: ["Range: bytes=5000-"])
                #expect(past.status == 416)
                #expect(try await harness.request("/large/4", method: "HEAD").status == 200)
                var finished: [(Int, Int)] = []
                var served: [(Int, Int)] = []
                for await batch in subscription.batches {
                    for event in batch {
                        if case .served(let answer) = event.kind { served.append((answer.status, answer.bytes)) }
                        if case .requestFinished(let done) = event.kind { finished.append((done.status, done.bytesFromCache)) }
                    }
                    if finished.count == 5 { break }
                }
                let expected = [(200, 4096), (304, 0), (206, 100), (416, past.body.count), (200, 0)]
                #expect(served.map(\.0) == expected.map(\.0), "answering on the event loop: \(immediate)")
                #expect(served.map(\.1) == expected.map(\.1), "answering on the event loop: \(immediate)")
                // From the cache: all but the first, which came from the origin.
                #expect(finished.dropFirst().map(\.1) == expected.dropFirst().map(\.1))
            }
        }
    }
}
