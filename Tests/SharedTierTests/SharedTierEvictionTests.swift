@testable import CachingClient
import Foundation
import HTTPCaching
import SharedTier
import Testing

@Suite("Shared tier: bounded size", .timeLimit(.minutes(2)))
struct SharedTierEvictionTests {
    @Test("eviction keeps the table under its bound, least recently used first")
    func evictionKeepsTheTableBounded() async throws {
        let (instances, tier) = try await Instances.start(1, boundedTo: 6_000, evictionBatchSize: 3)
        let client = instances.clients[0]
        for n in 1...40 {
            _ = try await client.data(from: instances.url("/max-age/\(1_000 + n)"))
            await client.finishSharedTierWrites()
            let rows = try await TestPostgres.execute("SELECT count(*), coalesce(sum(size), 0)::bigint FROM cachescope_entries", on: tier)
            #expect((rows.first?.1 ?? .max) <= tier.capacity, "after \(n) stores: \(rows)")
        }
        let rows = try await TestPostgres.execute("SELECT count(*), coalesce(sum(size), 0)::bigint FROM cachescope_entries", on: tier)
        let (count, used) = try #require(rows.first)
        #expect(count > 3 && count < 40, "some entries kept, the oldest evicted: \(count)")
        #expect(used > tier.capacity / 2, "evicted in small batches, not emptied: \(used) bytes")

        // The newest is still there: another instance is answered from the tier.
        let other = try await Instances.start(1, tier: tier)
        #expect(try await other.clients[0].data(from: instances.url("/max-age/1040")).outcome == .hit)
        #expect(try await other.clients[0].data(from: instances.url("/max-age/1001")).outcome == .miss, "the oldest went first")
        try await other.stop()
        try await instances.stop()
    }
}
