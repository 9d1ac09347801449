@_spi(Benchmarks) @testable import CacheStore
import Foundation
import HTTPCaching
import Testing
import HTTPTypes

@Suite("Observer", .timeLimit(.minutes(2)))
struct ObserverTests {
    @Test("stored, promoted, evicted and purged are reported with the entry's identity and tiers")
    func changeSequence() async throws {
        let (factory, store) = try StoreFactory(directory: TemporaryDirectory(), memoryCapacity: 4000, maximumEntryShare: 0.5).opened()
        let uri = "https://example.com/a"
        store.store(uri, body: Fixtures.body(1500), headers: [.eTag: "\"1\""], now: factory.clock.now)
        let stored = try #require(factory.recorder.stored.first)
        #expect(stored.id.key.uri == uri)
        #expect(stored.tier == .both)
        #expect(stored.eTag == "\"1\"")
        #expect(stored.size == CacheEntry.size(of: Fixtures.response(uri, headers: [.eTag: "\"1\""]), body: Fixtures.body(1500)))

        // Two more push the first out of memory (it stays on disk) ...
        store.store("https://example.com/b", body: Fixtures.body(1500), now: factory.clock.now)
        store.store("https://example.com/c", body: Fixtures.body(1500), now: factory.clock.now)
        let memoryEviction = try #require(factory.recorder.evictions(.capacity).first)
        #expect(memoryEviction.id.key.uri == uri)
        #expect(memoryEviction.removedFrom == .memory)
        #expect(memoryEviction.remaining == .disk)
        // ... and a lookup promotes it back.
        #expect(await store.entry(uri)?.metadata.tier == .both)
        #expect(factory.recorder.all.contains(.promoted(EntryID(key: Fixtures.key(uri), varySignature: ""))))

        store.removeAllCachedResponses()
        #expect(factory.recorder.all.last == .purged(.all))
        await store.close()
    }

    @Test("the observer is called outside the store's lock, so it may call the store")
    func reentrantObserver() async throws {
        let box = StoreBox()
        let factory = StoreFactory()
        let calls = Locked(0)
        let store = try ResponseStore(configuration: factory.configuration) { _ in
            // Would deadlock if called under the index lock.
            _ = box.store?.stats()
            calls.withLock { $0 += 1 }
        }
        box.store = store
        store.store("https://example.com/a", body: [1], now: factory.clock.now)
        store.removeAllCachedResponses()
        #expect(calls.withLock { $0 } == 2)
    }

    /// Lets the observer reach the store it observes.
    final class StoreBox: @unchecked Sendable {
        // @unchecked: set once before the store reports anything, then only read.
        var store: ResponseStore?
    }
}

@Suite("Observer call depth", .timeLimit(.minutes(2)))
struct ObserverDepthTests {
    @Test("the observer is called at the same stack depth after thousands of changes (no wrapper build-up)")
    func depthStaysFlat() async throws {
        let factory = StoreFactory()
        let depths = Locked<[Int]>([])
        let store = try ResponseStore(configuration: factory.configuration) { _ in
            depths.withLock { $0.append(Thread.callStackSymbols.count) }
        }
        for round in 0..<3000 {
            store.store("https://example.com/\(round % 7)", body: [1], now: factory.clock.now)
        }
        let recorded = depths.withLock { $0 }
        let first = try #require(recorded.first)
        let last = try #require(recorded.last)
        #expect(last <= first + 2, "the observer was called \(first) frames deep at first, \(last) after \(recorded.count) changes")
        await store.close()
    }
}
