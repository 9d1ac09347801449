@testable import CachingClient
import Foundation
import HTTPCaching
@testable import SharedTier
import Synchronization
import Testing

@Suite("Shared tier: bounded size", .timeLimit(.minutes(2)))
struct SharedTierEvictionTests {
    @Test("eviction keeps the table under its bound, least recently used first")
    func evictionKeepsTheTableBounded() async throws {
        let (instances, tier) = try await Instances.start(1, boundedTo: 6_000, evictionBatchSize: 3)
        let client = instances.clients[0]
        for n in 1...40 {
            let table = try await Self.store("/max-age/\(1_000 + n)", by: client, of: instances, tier: tier)
            #expect(table.bytes <= tier.capacity, "after \(n) stores: \(table)")
        }
        let (count, used) = try await Self.figures(of: tier)
        #expect(count > 3 && count < 40, "some entries kept, the oldest evicted: \(count)")
        #expect(used > tier.capacity / 2, "evicted in small batches, not emptied: \(used) bytes")

        // The newest is still there: another instance is answered from the tier.
        let other = try await Instances.start(1, tier: tier)
        #expect(try await other.clients[0].data(from: instances.url("/max-age/1040")).outcome == .hit)
        #expect(try await other.clients[0].data(from: instances.url("/max-age/1001")).outcome == .miss, "the oldest went first")
        try await other.stop()
        try await instances.stop()
    }

    /// A round deleted a whole batch however small the excess: one write past the bound
    /// emptied a tier whose batch held all its entries.
    @Test("a round evicts what it takes to get under the bound, not the whole batch")
    func evictionTakesOnlyTheExcess() async throws {
        let (instances, tier) = try await Instances.start(1, boundedTo: 6_000, evictionBatchSize: 100)
        let client = instances.clients[0]
        for n in 1...30 {
            let table = try await Self.store("/max-age/\(2_000 + n)", by: client, of: instances, tier: tier)
            #expect(table.bytes <= tier.capacity, "after \(n) stores: \(table)")
            if n > 25 { #expect(table.bytes > tier.capacity * 3 / 4 && table.entries > 5, "after \(n) stores, only the excess evicted: \(table)") }
        }
        try await instances.stop()
    }

    @Test("an instance sums the table's sizes at its first write, then once per 1/64 of the capacity it has written")
    func capacityLooksAreSpaced() async throws {
        let (instances, count, used) = try await Self.write(30, from: 2000, boundedTo: 64 * 100_000)
        #expect(count == 30)
        let shared = try #require(instances.clients[0].sharedTier)
        let interval = shared.capacityChecks.withLock { $0.interval }
        #expect(interval == 100_000)
        try #require(used < interval, "the 30 entries take less than one interval: \(used) bytes")
        #expect(shared.capacityChecks.withLock { $0.looks } == 1, "one look, at the first write, not one a write")
        try await instances.stop()
    }

    @Test("with looks spaced, the table stays within its bound plus one interval")
    func spacedLooksKeepTheBound() async throws {
        let capacity = 64 * 1_000
        let (instances, count, used) = try await Self.write(400, from: 3000, boundedTo: capacity)
        try #require(count > 0)
        let entry = used / count
        try #require(entry < 1_000, "an entry is smaller than one interval: \(entry) bytes")
        #expect(count < 400, "entries were evicted: \(count) kept")
        #expect(used <= capacity + 1_000 + entry, "\(used) bytes for a capacity of \(capacity)")
        let looks = try #require(instances.clients[0].sharedTier).capacityChecks.withLock { $0.looks }
        #expect(looks > 1 && looks < 200, "looked \(looks) times for 400 writes")
        try await instances.stop()
    }

    /// One instance on a fresh tier of `capacity` bytes (eviction batches of 10) that stores
    /// `count` responses (`/max-age/N` from N = `first`) one after another; the tier's entries
    /// and their bytes once every write has reached it.
    private static func write(_ count: Int, from first: Int, boundedTo capacity: Int) async throws -> (Instances, Int, Int) {
        let (instances, tier) = try await Instances.start(1, boundedTo: capacity, evictionBatchSize: 10)
        let client = instances.clients[0]
        for n in first..<(first + count) { _ = try await client.data(from: instances.url("/max-age/\(n)")) }
        await client.finishSharedTierWrites()
        let (entries, used) = try await Self.figures(of: tier)
        return (instances, entries, used)
    }

    /// The table's entries and the bytes they count.
    private static func figures(of tier: SharedTierConfiguration) async throws -> (entries: Int, bytes: Int) {
        let rows = try await TestPostgres.execute("SELECT count(*), coalesce(sum(size), 0)::bigint FROM cachescope_entries", on: tier)
        let (entries, bytes) = try #require(rows.first)
        return (entries, bytes)
    }

    /// Fetches `path` through `client` (a miss, stored), waits until it reached the tier, and
    /// returns the table's figures then.
    private static func store(
        _ path: String, by client: CachingClient, of instances: Instances, tier: SharedTierConfiguration
    ) async throws -> (entries: Int, bytes: Int) {
        _ = try await client.data(from: instances.url(path))
        await client.finishSharedTierWrites()
        return try await figures(of: tier)
    }
}
