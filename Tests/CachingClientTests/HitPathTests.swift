import CacheEvents
import CachingClient
import Foundation
import HTTPCaching
import HTTPTypes
import Synchronization
import Testing

/// What a fresh hit costs that does not depend on the machine: how often it reads the clock,
/// and how its events go out. (Its time and allocations are the benchmarks' to measure.)
@Suite("The fresh-hit path", .timeLimit(.minutes(1)))
struct HitPathTests {
    @Test("a fresh hit reads the client's clock twice: when it starts and when it is answered")
    func clockReadsPerHit() async throws {
        let reads = Atomic(0)
        let clock = TestClock()
        try await Harness.start { configuration in
            configuration.now = {
                reads.add(1, ordering: .relaxed)
                return clock.now
            }
        }.run { harness in
            _ = try await harness.get("/max-age/3600")
            _ = try await harness.get("/max-age/3600")
            for _ in 0..<5 {
                let before = reads.load(ordering: .relaxed)
                let hit = try await harness.get("/max-age/3600")
                #expect(hit.outcome == .hit)
                #expect(reads.load(ordering: .relaxed) - before == 2)
            }
        }
    }

    @Test("a hit's lookup, served and requestFinished carry consecutive seqs and the answer's time; requestStarted the start's")
    func hitEventsTogether() async throws {
        let clock = TestClock()
        try await Harness.start { configuration in
            configuration.now = { clock.now }
        }.runLogged { harness, log in
            _ = try await harness.get("/max-age/3600")
            clock.advance(by: 5)
            let hit = try await harness.get("/max-age/3600")
            let events = await EventOrderTests.expectSequence(
                ["requestStarted", "lookup", "served", "requestFinished"], of: hit.requestID, in: log)
            try #require(events.count == 4)
            #expect(events.dropFirst().map(\.seq) == [1, 2, 3].map { events[0].seq + $0 })
            #expect(Set(events.dropFirst().map(\.time)).count == 1)
            guard case .served(let served) = events[2].kind else { return }
            #expect(served.headers[.age] == "5")
        }
    }
}
