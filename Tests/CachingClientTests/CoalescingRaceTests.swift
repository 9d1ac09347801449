import CacheEvents
@testable import CachingClient
import DemoOrigin
import Foundation
import HTTPCaching
import HTTPTypes
import Testing

/// The race between a lookup that misses (or finds a stale entry) and the leader of a flight
/// for the same key, which stores its answer and leaves the coalescer: a request that looked
/// before the store but joins after the leader left must not reach the origin again.
///
/// Each round makes the race as likely as it can without sleeping: the leader's response is
/// held at the origin until half of the requests wait for it, then it is let go while the other
/// half are still being started, so their lookups run while the leader stores and leaves.
@Suite("Coalescing under a burst: one origin request however lookups and the leader interleave", .timeLimit(.minutes(3)))
struct CoalescingRaceTests {
    static let rounds = 20
    static let requests = 1_000

    @Test("1,000 concurrent GETs of a stale entry with a validator send exactly one conditional request, 20 times over")
    func staleEntryIsRevalidatedOnce() async throws {
        try await Harness.start().run { harness in
            for round in 0..<Self.rounds {
                let path = "/max-age/60?stale=\(round)"
                let stored = try await harness.get(path)
                harness.clock.advance(by: 120)  // stale, with an ETag and a Last-Modified
                let results = try await harness.concurrentGets(path, count: Self.requests)
                #expect(harness.origin.requestCount(path: path) == 2, "round \(round): the first GET and one conditional request")
                let conditional = harness.origin.lastRequestHeaders(path: path)?.contains { $0.name.lowercased() == "if-none-match" }
                #expect(conditional == true, "round \(round)")
                #expect(results.count == Self.requests)
                #expect(results.allSatisfy { $0.response.status.code == 200 && $0.body == stored.body }, "round \(round)")
                #expect(results.allSatisfy { $0.outcome == .revalidated || $0.outcome == .hit }, "round \(round)")
            }
        }
    }

    @Test("1,000 concurrent GETs of a missing entry send exactly one origin request, 20 times over")
    func missingEntryIsFetchedOnce() async throws {
        try await Harness.start().run { harness in
            for round in 0..<Self.rounds {
                let path = "/max-age/60?miss=\(round)"
                let results = try await harness.concurrentGets(path, count: Self.requests)
                #expect(harness.origin.requestCount(path: path) == 1, "round \(round)")
                #expect(results.count == Self.requests)
                let expected = Data("DemoOrigin \(path)\nCache-Control: max-age=60\n".utf8)
                #expect(results.allSatisfy { $0.response.status.code == 200 && $0.body == expected }, "round \(round)")
                #expect(results.allSatisfy { $0.outcome == .miss || $0.outcome == .hit }, "round \(round)")
            }
        }
    }
}

extension Harness {
    /// `count` concurrent GETs of `path`, ordered by handshakes: the first leads (its response
    /// held at the origin), half of the rest are started and wait for it, then the response is
    /// let go as the other half start.
    func concurrentGets(_ path: String, count: Int) async throws -> [ClientResponse] {
        let gate = hold(path)
        return try await withThrowingTaskGroup(of: ClientResponse.self) { group in
            group.addTask { try await self.get(path) }
            try await waitForArrivals(1, at: gate)
            let waiting = count / 2
            for _ in 1..<waiting { group.addTask { try await self.get(path) } }
            try await waitForFollowers(waiting - 1)
            gate.open()
            for _ in waiting..<count { group.addTask { try await self.get(path) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }
}
