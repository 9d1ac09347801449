@testable import CacheStore
import Foundation
import HTTPCaching
import Testing
import HTTPTypes

@Suite("TTL and expiry", .timeLimit(.minutes(2)))
struct ExpiryTests {
    @Test("a lookup never returns an entry past expiresAt; it is removed and reported expired")
    func lookupExpires() async throws {
        let (factory, store) = try StoreFactory(directory: TemporaryDirectory()).opened()
        store.store("https://example.com/short", body: [1], expiresIn: 30, now: factory.clock.now)
        #expect(await store.entry("https://example.com/short") != nil)
        factory.clock.advance(by: 31)
        #expect(store.memoryVariants(for: Fixtures.key("https://example.com/short")) == [])
        let expired = factory.recorder.evictions(.expired)
        #expect(expired.map(\.id.key.uri) == ["https://example.com/short"])
        #expect(expired.first?.removedFrom == .both)
        await store.flush()
        #expect(factory.directory!.entryFiles().isEmpty)
        await store.close()
    }

    @Test("removeExpired removes only expired entries and reports a purge")
    func removeExpired() async throws {
        let (factory, store) = try StoreFactory().opened()
        store.store("https://example.com/a", body: [1], expiresIn: 10, now: factory.clock.now)
        store.store("https://example.com/b", body: [2], expiresIn: 100, now: factory.clock.now)
        store.store("https://example.com/c", body: [3], expiresIn: nil, now: factory.clock.now)
        factory.clock.advance(by: 50)
        #expect(store.removeExpired() == 1)
        #expect(store.removeExpired() == 0)
        #expect(factory.recorder.all.filter { $0 == .purged(.expired) }.count == 1)
        #expect(store.stats().entryCount == 2)
    }

    @Test("expired entries are swept at open, and periodically")
    func sweeps() async throws {
        var factory = StoreFactory(directory: TemporaryDirectory())
        do {
            let store = try factory.open()
            store.store("https://example.com/a", body: [1], expiresIn: 10, now: factory.clock.now)
            store.store("https://example.com/b", body: [2], expiresIn: 1000, now: factory.clock.now)
            await store.close()
        }
        factory.clock.advance(by: 20)
        let reopened = try factory.open()
        #expect(reopened.stats().entryCount == 1)
        await reopened.flush()
        #expect(factory.recorder.evictions(.expired).map(\.id.key.uri) == ["https://example.com/a"])
        #expect(factory.directory!.entryFiles().count == 1)
        await reopened.close()

        factory.sweepInterval = .milliseconds(20)
        let sweeping = try factory.open()
        factory.clock.advance(by: 2000)
        // The periodic sweep is a timer (the behaviour under test): poll until it has run.
        for _ in 0..<200 where sweeping.stats().entryCount > 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(sweeping.stats().entryCount == 0)
        await sweeping.close()
    }

    @Test("an already expired response is not stored and replaces nothing")
    func storeExpired() async throws {
        let (factory, store) = try StoreFactory().opened()
        #expect(store.store("https://example.com/a", body: [1], expiresIn: -1, now: factory.clock.now) == nil)
        #expect(store.stats().entryCount == 0)
    }

    @Test("the listing counts the TTL down to freshUntil and shows age, hits and validators")
    func listing() async throws {
        let (factory, store) = try StoreFactory().opened()
        store.store(
            "https://example.com/a", body: Fixtures.body(10),
            headers: [.eTag: "\"abc\"", .lastModified: "Sun, 06 Nov 1994 08:49:37 GMT", .age: "5"], now: factory.clock.now)
        store.recordAccess(try #require(await store.entry("https://example.com/a")))
        factory.clock.advance(by: 20)
        let rows = await store.entries()
        let row = try #require(rows.first)
        #expect(rows.count == 1)
        #expect(row.uri == "https://example.com/a")
        #expect(row.method == "GET")
        #expect(row.tier == .memory)
        #expect(row.ttlRemaining == 40)
        #expect(row.age == 25)
        #expect(row.hits == 1)
        #expect(row.eTag == "\"abc\"")
        #expect(row.lastModified == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(row.status == 200)
        #expect(row.namespace == "default")
        #expect(row.expiresAt == Fixtures.epoch.addingTimeInterval(86_400))
    }
}
