@testable import CacheStore
import Foundation
import HTTPCaching
import HTTPTypes
import Testing

/// `storeFreshened(_:of:…)`: what a 304 does to a stored entry (RFC 9111 §4.3.4).
@Suite("Storing a freshened response", .timeLimit(.minutes(2)))
struct FreshenedStoreTests {
    /// The stored response after a 304 at `time`: new Date and Cache-Control, the same
    /// variant and validator.
    static func freshened(_ uri: String, at time: Date, maxAge: Int) -> StoredResponse {
        let fields: HTTPFields = [
            .cacheControl: "max-age=\(maxAge)", .contentType: "application/octet-stream", .eTag: "\"v1\"",
            .date: HTTPDate.format(time),
        ]
        return StoredResponse(
            key: Fixtures.key(uri), response: HTTPResponse(status: .ok, headerFields: fields), requestTime: time,
            responseTime: time, varyKey: VaryKey(responseHeaders: fields, requestHeaders: [:]))
    }

    @Test("the freshened headers and freshness replace the old ones; the body, creation time and hit count stay")
    func replacesHeadersKeepsEntry() async throws {
        let (factory, store) = try StoreFactory().opened()
        let uri = "https://example.com/a"
        let body = Fixtures.body(500)
        let created = factory.clock.now
        store.store(uri, body: body, headers: [.eTag: "\"v1\""], now: created)
        let original = try #require(await store.entry(uri))
        store.recordAccess(original)
        store.recordAccess(original)
        let counted = try #require(await store.entry(uri))

        factory.clock.advance(by: 120)
        let later = factory.clock.now
        let tier = store.storeFreshened(
            Self.freshened(uri, at: later, maxAge: 300), of: counted, freshUntil: later.addingTimeInterval(300), expiresAt: nil)
        #expect(tier == .memory)

        let entry = try #require(await store.entry(uri))
        #expect(entry.body == body)
        #expect(entry.stored.cacheControl.maxAge == .seconds(300))
        #expect(entry.stored.responseTime == later)
        #expect(entry.metadata.freshUntil == later.addingTimeInterval(300))
        #expect(entry.metadata.created == created)
        #expect(entry.metadata.accessCount == 2)
        #expect(entry.metadata.size == CacheEntry.size(of: entry.stored, body: body))
        #expect(store.stats().memoryEntryCount == 1)
        #expect(factory.recorder.stored.last?.id == entry.id)
        #expect(store.invariantViolations() == [])
    }

    @Test("a response that is not a variant of the entry is stored as a new response, the entry left as it was")
    func otherVariantIsStoredAsNew() async throws {
        let (factory, store) = try StoreFactory().opened()
        store.store("https://example.com/a", body: [1, 2, 3], headers: [.eTag: "\"v1\""], now: factory.clock.now)
        let entry = try #require(await store.entry("https://example.com/a"))
        let other = Self.freshened("https://example.com/b", at: factory.clock.now, maxAge: 60)
        store.storeFreshened(other, of: entry, freshUntil: factory.clock.now.addingTimeInterval(60), expiresAt: nil)
        let stored = try #require(await store.entry("https://example.com/b"))
        #expect(stored.body == [1, 2, 3])
        #expect(stored.metadata.accessCount == 0)
        #expect(try #require(await store.entry("https://example.com/a")).stored.cacheControl.maxAge == .seconds(60))
        #expect(store.stats().memoryEntryCount == 2)
    }

    @Test("policy notAllowed stores nothing and leaves the entry in place")
    func notAllowed() async throws {
        let (factory, store) = try StoreFactory().opened()
        store.store("https://example.com/a", body: [1], headers: [.eTag: "\"v1\""], now: factory.clock.now)
        let entry = try #require(await store.entry("https://example.com/a"))
        let tier = store.storeFreshened(
            Self.freshened("https://example.com/a", at: factory.clock.now, maxAge: 5), of: entry,
            freshUntil: factory.clock.now.addingTimeInterval(5), expiresAt: nil, policy: .notAllowed)
        #expect(tier == nil)
        #expect(try #require(await store.entry("https://example.com/a")).stored.cacheControl.maxAge == .seconds(60))
    }

    @Test("with a disk, the freshened headers are what a reopened store reads")
    func persists() async throws {
        let factory = StoreFactory(directory: TemporaryDirectory())
        let uri = "https://example.com/a"
        let body = Fixtures.body(2000)
        do {
            let store = try factory.open()
            store.store(uri, body: body, headers: [.eTag: "\"v1\""], now: factory.clock.now)
            let entry = try #require(await store.entry(uri))
            factory.clock.advance(by: 30)
            let tier = store.storeFreshened(
                Self.freshened(uri, at: factory.clock.now, maxAge: 900), of: entry,
                freshUntil: factory.clock.now.addingTimeInterval(900), expiresAt: nil)
            #expect(tier == .both)
            await store.close()
        }
        let reopened = try factory.open()
        let entry = try #require(await reopened.entry(uri))
        #expect(entry.body == body)
        #expect(entry.stored.cacheControl.maxAge == .seconds(900))
        #expect(entry.metadata.freshUntil == factory.clock.now.addingTimeInterval(900))
        #expect(reopened.stats().diskEntryCount == 1)
        #expect(factory.directory!.entryFiles().count == 1)
        await reopened.close()
    }

    @Test("a namespace's TTL caps a freshened entry's lifetime as it caps a new one's")
    func namespaceTTL() async throws {
        let (factory, store) = try StoreFactory(defaultNamespace: Namespace(name: "default", match: .all, timeToLive: 10)).opened()
        let uri = "https://example.com/a"
        store.store(uri, body: [1], headers: [.eTag: "\"v1\""], now: factory.clock.now)
        let entry = try #require(await store.entry(uri))
        let now = factory.clock.now
        store.storeFreshened(
            Self.freshened(uri, at: now, maxAge: 600), of: entry, freshUntil: now.addingTimeInterval(600), expiresAt: nil)
        let freshened = try #require(await store.entry(uri))
        #expect(freshened.metadata.freshUntil == now.addingTimeInterval(10))
        #expect(freshened.metadata.expiresAt == now.addingTimeInterval(10))
    }
}
