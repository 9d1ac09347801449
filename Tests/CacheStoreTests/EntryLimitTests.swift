@testable import CacheStore
import Foundation
import HTTPCaching
import Testing

/// The per-entry limit and what an entry really takes (a hunt of 27 November): an entry within
/// its share whose footprint was larger than the tier pushed every other entry out, then
/// itself; a capacity of `Int.max` with a share of 1 stopped the process.
@Suite("Entry limits against what entries take", .timeLimit(.minutes(2)))
struct EntryLimitTests {
    /// A memory-only store of 10,000 bytes whose entries may each take all of it.
    private static func smallMemoryStore() throws -> (StoreFactory, ResponseStore) {
        var factory = StoreFactory(directory: nil)
        factory.memoryCapacity = 10_000
        factory.maximumEntryShare = 1.0
        return (factory, try factory.open())
    }

    @Test("an entry within its share but larger than the memory tier can hold is not kept, and evicts nothing")
    func tooLargeForTheTierEvictsNothing() async throws {
        let (factory, store) = try Self.smallMemoryStore()
        for index in 0..<3 { store.store("https://example.com/\(index)", body: [UInt8](repeating: 1, count: 100), now: factory.clock.now) }
        let before = store.stats().memoryEntryCount
        #expect(before == 3)
        // 9,500 bytes of body: within a share of 1 by size, past the tier with its footprint.
        #expect(store.store("https://example.com/big", body: [UInt8](repeating: 2, count: 9_500), now: factory.clock.now) == nil)
        #expect(store.stats().memoryEntryCount == before, "nothing pushed out for it")
        #expect(factory.recorder.evictions(.capacity).isEmpty, "\(factory.recorder.evictions)")
        await store.close()
    }

    /// The stored copy went without a word, so a dashboard went on listing it.
    @Test("a new response to a stored variant that cannot be kept removes the old copy and reports it gone")
    func unkeptReplacementReportsTheOldCopy() async throws {
        let (factory, store) = try Self.smallMemoryStore()
        #expect(store.store("https://example.com/page", body: [UInt8](repeating: 1, count: 100), now: factory.clock.now) == .memory)
        #expect(store.store("https://example.com/page", body: [UInt8](repeating: 2, count: 9_500), now: factory.clock.now) == nil)
        #expect(store.stats().memoryEntryCount == 0, "the old copy is superseded")
        let gone = factory.recorder.evictions.filter { $0.id.key.uri == "https://example.com/page" }
        #expect(gone.count == 1, "\(factory.recorder.evictions)")
        #expect(gone.first?.reason == .capacity, "too large to keep in any tier")
        #expect(gone.first?.remaining == nil)
        await store.close()
    }

    /// It still counted the disk footprint without the files' framing: a body 512 bytes under
    /// the limit it gave was refused (a review of 27 November).
    @Test("a body of exactly maximumBodySize is kept on disk; one byte more is not")
    func diskLimitExact() async throws {
        var factory = StoreFactory(directory: TemporaryDirectory())
        factory.memoryCapacity = 0
        factory.diskCapacity = 64 << 10
        factory.maximumEntryShare = 1.0
        let store = try factory.open()
        let now = factory.clock.now
        let limit = store.maximumBodySize(for: Fixtures.key("https://example.com/a"), response: Fixtures.response("https://example.com/a", at: now).response)
        #expect(limit > 0)
        #expect(store.store("https://example.com/a", body: [UInt8](repeating: 1, count: limit), now: now) == .disk)
        #expect(store.store("https://example.com/a", body: [UInt8](repeating: 1, count: limit + 1), now: now) == nil)
        await store.close()
    }

    @Test("a capacity of Int.max with a share of 1 stores, instead of stopping the process")
    func largestCapacity() async throws {
        var factory = StoreFactory(directory: nil)
        factory.memoryCapacity = Int.max
        factory.maximumEntryShare = 1.0
        let store = try factory.open()
        #expect(store.store("https://example.com/a", body: [1, 2, 3], now: factory.clock.now) == .memory)
        #expect(store.maximumBodySize(for: Fixtures.key("https://example.com/a"), response: Fixtures.response("https://example.com/a", at: factory.clock.now).response) > 1 << 40)
        await store.close()
    }

    @Test("a namespace's time to live must be finite; an infinite freshness date is written as the farthest a date can name")
    func infiniteDates() async throws {
        var configuration = StoreConfiguration()
        configuration.namespaces = [Namespace(name: "inf", match: .prefix("http://i/"), timeToLive: .infinity)]
        #expect(throws: CacheStoreError.self) { try configuration.validate() }

        let directory = TemporaryDirectory()
        var factory = StoreFactory(directory: directory)
        factory.memoryCapacity = 0  // every read from the disk
        let store = try factory.open()
        let now = factory.clock.now
        let response = Fixtures.response("https://example.com/forever", at: now)
        store.storeCachedResponse(response, body: [7], freshUntil: Date(timeIntervalSinceReferenceDate: .infinity), expiresAt: nil)
        await store.flush()
        let read = await store.entry("https://example.com/forever")
        #expect(read?.body == [7], "read back, not taken for damage")
        #expect(factory.recorder.evictions(.corrupt).isEmpty)
        await store.close()
    }
}
