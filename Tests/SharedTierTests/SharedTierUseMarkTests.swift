import CachingClient
import Foundation
import HTTPCaching
import SharedTier
import Testing

/// A lookup only reads; the entries it found are marked used a moment later, together — and
/// that mark is what keeps a read entry from eviction ahead of unread ones.
@Suite("Shared tier: entries read are marked used", .timeLimit(.minutes(2)))
struct SharedTierUseMarkTests {
    /// Rows whose sealed head names `path` (the tests' tiers are not encrypted) and that were
    /// used last of all.
    private static func isLastUsed(_ path: String, on tier: SharedTierConfiguration) async throws -> Bool {
        let rows = try await TestPostgres.execute(
            """
            SELECT count(*), 0 FROM cachescope_entries
            WHERE position('\(path)'::bytea IN metadata) > 0 AND last_access = (SELECT max(last_access) FROM cachescope_entries)
            """, on: tier)
        return rows.first?.0 == 1
    }

    @Test("an entry another instance reads becomes the most recently used soon after (a second), without any wait for writes")
    func readEntryMarkedUsedSoon() async throws {
        let tier = try await TestPostgres.freshDatabase(instance: "unused")
        let instances = try await Instances.start(2, tier: tier)
        let (writer, reader) = (instances.clients[0], instances.clients[1])
        for n in 1...4 {
            _ = try await writer.data(from: instances.url("/max-age/\(3_000 + n)"))
            await writer.finishSharedTierWrites()
        }
        #expect(try await Self.isLastUsed("/max-age/3004", on: tier))
        #expect(try await reader.data(from: instances.url("/max-age/3001")).outcome == .hit)
        var marked = false
        let deadline = ContinuousClock.now + .seconds(5)  // marked after about 1 s; 5 s for a busy machine
        while !marked, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            marked = try await Self.isLastUsed("/max-age/3001", on: tier)
        }
        #expect(marked, "the read entry is the most recently used")
        try await instances.stop()
    }

    @Test("an entry read just before its instance shuts down is marked used by the shutdown")
    func shutdownWritesPendingMarks() async throws {
        let tier = try await TestPostgres.freshDatabase(instance: "unused")
        let writer = try await Instances.start(1, tier: tier)
        for n in 1...3 {
            _ = try await writer.clients[0].data(from: writer.url("/max-age/\(5_000 + n)"))
            await writer.clients[0].finishSharedTierWrites()
        }
        let reader = try await Instances.start(1, tier: tier)
        #expect(try await reader.clients[0].data(from: writer.url("/max-age/5001")).outcome == .hit)
        try await reader.stop()  // at once: the mark is still waiting for its second
        #expect(try await Self.isLastUsed("/max-age/5001", on: tier))
        try await writer.stop()
    }

    @Test("an entry read from the tier outlives older unread ones when the table is over its bound")
    func readEntrySurvivesEviction() async throws {
        let (instances, tier) = try await Instances.start(2, boundedTo: 6_000, evictionBatchSize: 1)
        let (writer, reader) = (instances.clients[0], instances.clients[1])
        for n in 1...3 {
            _ = try await writer.data(from: instances.url("/max-age/\(4_000 + n)"))
            await writer.finishSharedTierWrites()
        }
        #expect(try await reader.data(from: instances.url("/max-age/4001")).outcome == .hit)
        await reader.finishSharedTierWrites()  // the mark is written now
        // Store until the second entry (older than the read, never read) is evicted.
        var n = 3
        func has(_ path: String) async throws -> Bool {
            try await TestPostgres.execute(
                "SELECT count(*), 0 FROM cachescope_entries WHERE position('\(path)'::bytea IN metadata) > 0", on: tier
            ).first?.0 == 1
        }
        while try await has("/max-age/4002"), n < 60 {
            n += 1
            _ = try await writer.data(from: instances.url("/max-age/\(4_000 + n)"))
            await writer.finishSharedTierWrites()
        }
        #expect(try await !has("/max-age/4002"), "the bound was reached within 60 entries")
        #expect(try await has("/max-age/4001"), "the entry read after /4002 was stored outlives it")
        try await instances.stop()
    }
}
