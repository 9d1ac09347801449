@testable import CacheStore
import Foundation
import HTTPCaching
import HTTPTypes
import Testing

@Suite("Memory tier", .timeLimit(.minutes(2)))
struct MemoryTierTests {
    @Test("a stored response reads back byte for byte with its metadata")
    func storeAndRead() async throws {
        let (factory, store) = try StoreFactory().opened()
        let body = Fixtures.body(1000)
        let tier = store.store("https://example.com/a", body: body, headers: [.eTag: "\"v1\""], now: factory.clock.now)
        #expect(tier == .memory)
        let entry = try #require(await store.entry("https://example.com/a"))
        #expect(entry.body == body)
        #expect(entry.stored.entityTag?.opaqueTag == "v1")
        #expect(entry.metadata.tier == .memory)
        #expect(entry.metadata.created == factory.clock.now)
        #expect(entry.metadata.accessCount == 0)
        #expect(entry.metadata.size == CacheEntry.size(of: entry.stored, body: body))
        #expect(entry.metadata.size > body.count)
        #expect(await store.entry("https://example.com/missing") == nil)
    }

    @Test("memoryVariants answers without the disk, and recordAccess counts hits")
    func fastPathAndAccess() throws {
        let (factory, store) = try StoreFactory().opened()
        store.store("https://example.com/a", body: [1, 2, 3], now: factory.clock.now)
        let entries = try #require(store.memoryVariants(for: Fixtures.key("https://example.com/a")))
        #expect(entries.count == 1)
        #expect(store.memoryVariants(for: Fixtures.key("https://example.com/none")) == [])
        factory.clock.advance(by: 5)
        store.recordAccess(entries[0])
        store.recordAccess(entries[0])
        let after = try #require(store.memoryVariants(for: Fixtures.key("https://example.com/a"))?.first)
        #expect(after.metadata.accessCount == 2)
        #expect(after.metadata.lastAccess == factory.clock.now)
    }

    @Test("capacity evicts the least recently used entry first, reported as capacity")
    func lruEviction() async throws {
        let (factory, store) = try StoreFactory(memoryCapacity: 1 << 20).opened()
        let body = Fixtures.body(2000)
        for index in 0..<4 { store.store("https://example.com/\(index)", body: body, now: factory.clock.now) }
        // Room for four entries and a half: each counts its footprint, not only its 2 KB.
        let footprint = try #require(await store.entry("https://example.com/3").map(EntryFootprint.memory))
        store.memoryCapacity = 4 * footprint + footprint / 2
        #expect(store.stats().memoryEntryCount == 4)
        // Use /0 so /1 becomes the least recently used.
        store.recordAccess(try #require(await store.entry("https://example.com/0")))
        store.store("https://example.com/4", body: body, now: factory.clock.now)
        #expect(await store.entry("https://example.com/1") == nil)
        #expect(await store.entry("https://example.com/0") != nil)
        #expect(await store.entry("https://example.com/4") != nil)
        let evicted = factory.recorder.evictions(.capacity)
        #expect(evicted.map(\.id.key.uri) == ["https://example.com/1"])
        #expect(evicted.first?.removedFrom == .memory)
        #expect(evicted.first?.remaining == nil)
        #expect(store.currentMemoryUsage <= store.memoryCapacity)
        #expect(store.invariantViolations() == [])
    }

    @Test("lowering the capacity evicts at once; raising it keeps everything")
    func capacityChanges() async throws {
        let (factory, store) = try StoreFactory(memoryCapacity: 100_000).opened()
        for index in 0..<10 { store.store("https://example.com/\(index)", body: Fixtures.body(3000), now: factory.clock.now) }
        #expect(store.stats().memoryEntryCount == 10)
        store.memoryCapacity = 10_000
        #expect(store.currentMemoryUsage <= 10_000)
        #expect(store.stats().memoryEntryCount < 10)
        #expect(await store.entry("https://example.com/9") != nil)
        #expect(await store.entry("https://example.com/0") == nil)
        store.memoryCapacity = 0
        #expect(store.currentMemoryUsage == 0)
        #expect(store.stats().entryCount == 0)
        store.memoryCapacity = 1 << 20
        #expect(store.store("https://example.com/x", body: Fixtures.body(3000), now: factory.clock.now) == .memory)
        #expect(store.invariantViolations() == [])
    }

    @Test("storing the same variant again replaces it without growing the store")
    func restore() async throws {
        let (factory, store) = try StoreFactory().opened()
        for round in 0..<50 {
            store.store("https://example.com/a", body: Fixtures.body(500 + round, seed: UInt8(round)), now: factory.clock.now)
        }
        let entry = try #require(await store.entry("https://example.com/a"))
        #expect(entry.body == Fixtures.body(549, seed: 49))
        #expect(store.stats().entryCount == 1)
        #expect(store.currentMemoryUsage == EntryFootprint.memory(entry))
    }

    @Test("an entry larger than the maximum share of the capacity is not stored")
    func tooLarge() async throws {
        let (factory, store) = try StoreFactory(memoryCapacity: 10_000, maximumEntryShare: 0.1).opened()
        #expect(store.store("https://example.com/big", body: Fixtures.body(2000), now: factory.clock.now) == nil)
        #expect(await store.entry("https://example.com/big") == nil)
        #expect(store.store("https://example.com/small", body: Fixtures.body(100), now: factory.clock.now) == .memory)
    }

    @Test("storage policy notAllowed stores nothing; allowedInMemoryOnly never reaches the disk")
    func policies() async throws {
        let (factory, store) = try StoreFactory(directory: TemporaryDirectory()).opened()
        #expect(store.store("https://example.com/no", body: [1], policy: .notAllowed, now: factory.clock.now) == nil)
        #expect(await store.entry("https://example.com/no") == nil)
        #expect(store.store("https://example.com/mem", body: [2], policy: .allowedInMemoryOnly, now: factory.clock.now) == .memory)
        #expect(store.store("https://example.com/both", body: [3], now: factory.clock.now) == .both)
        await store.flush()
        #expect(factory.directory!.entryFiles().count == 1)
        #expect(store.stats().diskEntryCount == 1)
        await store.close()
    }

    @Test("several Vary variants of one key are all returned, and cachedResponse picks the matching one")
    func varyVariants() async throws {
        let (factory, store) = try StoreFactory().opened()
        let uri = "https://example.com/greeting"
        for language in ["en", "de", "fr"] {
            store.storeCachedResponse(
                Fixtures.response(uri, headers: [.vary: "Accept-Language"], requestHeaders: [.acceptLanguage: language]),
                body: Array(language.utf8), freshUntil: nil, expiresAt: nil)
        }
        let variants = await store.variants(for: Fixtures.key(uri))
        #expect(Set(variants.map { String(decoding: $0.body, as: UTF8.self) }) == ["en", "de", "fr"])
        #expect(Set(variants.map(\.id.varySignature)).count == 3)
        let german = await store.cachedResponse(for: Fixtures.request(uri, headers: [.acceptLanguage: "de"]))
        #expect(german.map { String(decoding: $0.body, as: UTF8.self) } == "de")
        #expect(german?.metadata.accessCount == 1)
        #expect(await store.cachedResponse(for: Fixtures.request(uri, headers: [.acceptLanguage: "it"])) == nil)
        #expect(store.removeCachedResponse(for: Fixtures.key(uri)) == 3, "a key purge counts what it removed")
        #expect(await store.variants(for: Fixtures.key(uri)).isEmpty)
        #expect(store.removeCachedResponse(for: Fixtures.key(uri)) == 0)
        #expect(factory.recorder.evictions(.purged).count == 3)
        #expect(factory.recorder.all.contains(.purged(.key(Fixtures.key(uri)))))
    }
}
