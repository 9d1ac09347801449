import CacheEvents
import CachingClient
import Foundation
import HTTPCaching
import HTTPTypes
import Testing
import CacheStore

/// The request timeout and the body size limit: the errors the client documents for them, and
/// what is (not) stored.
@Suite("Limits: the request timeout and the largest body", .timeLimit(.minutes(2)))
struct LimitsTests {
    // MARK: Timeout

    /// Long enough for a first connection and request on a busy machine to reach the origin
    /// (and, unheld, to be answered) before it runs out.
    static let timeout: Duration = .seconds(2)

    @Test("an origin that answers later than requestTimeout: transport(timedOut) naming the URL and the timeout")
    func timeout() async throws {
        try await Harness.start(timeout: Self.timeout).run { harness in
            // The origin holds the answer until the test is done: longer than any timeout.
            let gate = harness.hold("/max-age/60")
            let url = harness.url("/max-age/60")
            await #expect {
                try await harness.get("/max-age/60")
            } throws: { error in
                guard case .transport(.timedOut(let timedOutURL, let after, false)) = error as? CachingClientError else { return false }
                return timedOutURL == url && after == Self.timeout
            }
            #expect(gate.arrivals == 1, "the request reached the origin and was held")
            #expect(harness.client.store.stats().entryCount == 0)
            gate.open()
        }
    }

    @Test("a timed-out revalidation of a response the request allows stale-if-error serves the stored body")
    func timeoutFallsBackToStale() async throws {
        try await Harness.start(timeout: Self.timeout).run { harness in
            let first = try await harness.get("/max-age/1")
            harness.clock.advance(by: 5)
            let gate = harness.hold("/max-age/1")
            let fallback = try await harness.get("/max-age/1", headers: [.cacheControl: "stale-if-error=600"])
            #expect(fallback.outcome == .stale)
            #expect(fallback.body == first.body)
            #expect(gate.arrivals == 1)
            gate.open()
        }
    }

    // MARK: Body size

    @Test("a body above the transport's maximumBodySize: transport(bodyTooLarge), nothing stored")
    func bodyTooLarge() async throws {
        try await Harness.start { $0.transport = AsyncHTTPClientTransport(maximumBodySize: 4096) }.run { harness in
            let url = harness.url("/large/5")
            await #expect {
                try await harness.get("/large/5")
            } throws: { error in
                guard case .transport(.bodyTooLarge(let failedURL, let limit)) = error as? CachingClientError else { return false }
                return failedURL == url && limit == 4096
            }
            #expect(harness.client.store.stats().entryCount == 0)
            await #expect {
                try await harness.get("/large/5", policy: .returnCacheDataDontLoad)
            } throws: { error in
                guard case .notCached = error as? CachingClientError else { return false }
                return true
            }
        }
    }

    @Test("a body exactly at the limit is accepted and stored")
    func bodyAtTheLimit() async throws {
        try await Harness.start { $0.transport = AsyncHTTPClientTransport(maximumBodySize: 4096) }.run { harness in
            let first = try await harness.get("/large/4")
            #expect(first.body.count == 4096)
            let second = try await harness.get("/large/4")
            #expect(second.outcome == .hit)
            #expect(second.body == first.body)
        }
    }

    @Test("a body the store's share limit keeps off the disk is still served from memory")
    func tooLargeForDiskStaysInMemory() async throws {
        try await Harness.start(disk: true) {
            $0.store.diskCapacity = 40 << 10
            $0.store.maximumEntryShare = 0.25  // 10 KiB at most on disk
        }.run { harness in
            _ = try await harness.get("/large/16")
            _ = try await harness.get("/large/4")
            let entries = await harness.client.store.entries()
            #expect(entries.first { $0.id.key.uri.hasSuffix("/large/16") }?.tier == .memory)
            #expect(entries.first { $0.id.key.uri.hasSuffix("/large/4") }?.tier == .both)
            #expect(try await harness.get("/large/16").outcome == .hit)
        }
    }

    /// A body too large for the store was refused by it while the miss said "not in cache",
    /// as if it had been kept: a second request was a miss again with nothing said.
    @Test("a body larger than the store keeps: the miss says so (no TTL: nothing was kept), and the next request is a miss again")
    func tooLargeForTheStore() async throws {
        try await Harness.start {
            $0.store.memoryCapacity = 64 << 10
            $0.store.maximumEntryShare = 0.25  // 16 KiB at most
        }.run { harness in
            let first = try await harness.get("/large/32")
            let limit = harness.client.store.maximumBodySize(
                for: try #require(CacheKey(method: "GET", uri: harness.url("/large/32"))), response: first.response)
            #expect(first.outcome == .miss && first.body.count == 32 << 10)
            #expect(first.reason == "body larger than the store keeps (\(limit) bytes)")
            #expect(first.timeToLive == nil)
            #expect(harness.client.store.stats().entryCount == 0)
            #expect(try await harness.get("/large/32").outcome == .miss)
        }
    }
}
