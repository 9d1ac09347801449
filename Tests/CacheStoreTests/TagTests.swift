@testable import CacheStore
import Foundation
import HTTPCaching
import HTTPTypes
import Testing

@Suite("Tags (surrogate keys) in the store", .timeLimit(.minutes(2)))
struct TagTests {
    static let surrogateKey = HTTPField.Name("Surrogate-Key")!

    /// Stores three entries: `a` tagged `product shoes`, `b` tagged `product`, `c` untagged.
    func storeThree(_ store: ResponseStore, at now: Date) {
        store.store("https://example.com/a", body: Fixtures.body(100), headers: [Self.surrogateKey: "product shoes"], now: now)
        store.store("https://example.com/b", body: Fixtures.body(200), headers: [Self.surrogateKey: "product"], now: now)
        store.store("https://example.com/c", body: Fixtures.body(300), now: now)
    }

    @Test("a tag purge in memory removes every entry carrying the tag, reports each, and leaves the rest")
    func memoryPurge() async throws {
        let (factory, store) = try StoreFactory().opened()
        storeThree(store, at: factory.clock.now)
        #expect(await store.removeTagged("product") == 2)
        #expect(await store.entry("https://example.com/a") == nil)
        #expect(await store.entry("https://example.com/b") == nil)
        #expect(await store.entry("https://example.com/c") != nil)
        #expect(factory.recorder.evictions(.purged).count == 2)
        #expect(factory.recorder.all.contains(.purged(.tag("product"))))
        #expect(await store.removeTagged("product") == 0)
        #expect(store.invariantViolations() == [])
    }

    @Test("the listing carries each entry's tags, from the stored response's Surrogate-Key")
    func listingTags() async throws {
        let (factory, store) = try StoreFactory().opened()
        storeThree(store, at: factory.clock.now)
        let tags = Dictionary(uniqueKeysWithValues: await store.entries().map { ($0.uri, $0.tags) })
        #expect(tags == ["https://example.com/a": ["product", "shoes"], "https://example.com/b": ["product"], "https://example.com/c": []])
    }

    @Test("tags are indexed on disk: after reopening, a tag purge removes the disk-only entries carrying it and they stay gone")
    func diskPurgeAfterReopen() async throws {
        let factory = StoreFactory(directory: TemporaryDirectory())
        do {
            let store = try factory.open()
            storeThree(store, at: factory.clock.now)
            await store.close()
        }
        do {
            let store = try factory.open()
            #expect(store.stats().memoryEntryCount == 0)
            #expect(await store.removeTagged("shoes") == 1)
            #expect(store.stats().diskEntryCount == 2)
            // Listed after reopening: the tags come back from the index.
            #expect(await store.entries().first { $0.uri == "https://example.com/b" }?.tags == ["product"])
            await store.close()
        }
        let store = try factory.open()
        #expect(await store.entry("https://example.com/a") == nil)
        #expect(await store.entry("https://example.com/b") != nil)
        #expect(await store.removeTagged("product") == 1)
        #expect(await store.entry("https://example.com/c") != nil)
        #expect(store.invariantViolations() == [])
        await store.close()
    }

    @Test("a replaced entry loses its old tags on disk; the new ones find it")
    func replacementReplacesTags() async throws {
        let factory = StoreFactory(directory: TemporaryDirectory())
        do {
            let store = try factory.open()
            store.store("https://example.com/a", body: Fixtures.body(100), headers: [Self.surrogateKey: "old"], now: factory.clock.now)
            store.store("https://example.com/a", body: Fixtures.body(120), headers: [Self.surrogateKey: "new"], now: factory.clock.now)
            await store.close()
        }
        let store = try factory.open()
        #expect(await store.removeTagged("old") == 0)
        #expect(await store.entry("https://example.com/a") != nil)
        #expect(await store.removeTagged("new") == 1)
        await store.close()
    }

    @Test("an index written before tags gets its tags table at open: its entries stay and new ones are tagged")
    func oldIndexMigrates() async throws {
        let factory = StoreFactory(directory: TemporaryDirectory())
        do {
            let store = try factory.open()
            store.store("https://example.com/old", body: Fixtures.body(100), now: factory.clock.now)
            await store.close()
        }
        let index = factory.directory!.namespace() + "/index.sqlite"
        do {
            let connection = try SQLiteConnection(path: index)
            try connection.execute("DROP INDEX tags_by_entry; DROP TABLE tags")
            connection.close()
        }
        let store = try factory.open()
        #expect(await store.entry("https://example.com/old") != nil)
        store.store("https://example.com/new", body: Fixtures.body(100), headers: [Self.surrogateKey: "fresh"], now: factory.clock.now)
        await store.close()
        let reopened = try factory.open()
        #expect(await reopened.removeTagged("fresh") == 1)
        #expect(await reopened.entry("https://example.com/old") != nil)
        await reopened.close()
    }

    @Test("an encrypted index keeps tag digests, not the tags")
    func encryptedIndexHidesTags() async throws {
        var factory = StoreFactory(directory: TemporaryDirectory())
        factory.defaultNamespace = Namespace(name: "default", match: .all, encryptionKey: try EncryptionKey(bytes: Array(repeating: 7, count: 32)))
        do {
            let store = try factory.open()
            store.store("https://example.com/a", body: Fixtures.body(100), headers: [Self.surrogateKey: "secret-tag"], now: factory.clock.now)
            await store.close()
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: factory.directory!.namespace() + "/index.sqlite"))
        #expect(bytes.range(of: Data("secret-tag".utf8)) == nil)
        let store = try factory.open()
        #expect(await store.removeTagged("secret-tag") == 1)
        await store.close()
    }

    @Test("tagField names the header read; nil indexes no tags; an invalid name is refused at open")
    func tagFieldConfiguration() async throws {
        var configuration = StoreConfiguration()
        configuration.tagField = "Cache-Tag"
        let store = try ResponseStore(configuration: configuration)
        let now = Date()
        store.store("https://example.com/a", body: [1], headers: [HTTPField.Name("Cache-Tag")!: "x"], now: now)
        store.store("https://example.com/b", body: [1], headers: [Self.surrogateKey: "x"], now: now)
        #expect(await store.removeTagged("x") == 1)
        #expect(await store.entry("https://example.com/b") != nil)

        configuration.tagField = nil
        let untagged = try ResponseStore(configuration: configuration)
        untagged.store("https://example.com/a", body: [1], headers: [Self.surrogateKey: "x"], now: now)
        #expect(await untagged.removeTagged("x") == 0)

        configuration.tagField = "Bad Header"
        #expect {
            _ = try ResponseStore(configuration: configuration)
        } throws: { error in
            "\(error)".contains("tagField \"Bad Header\" is not a header field name")
        }
    }
}
