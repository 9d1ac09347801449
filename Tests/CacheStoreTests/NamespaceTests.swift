@testable import CacheStore
import Foundation
import HTTPCaching
import Testing

@Suite("Namespaces", .timeLimit(.minutes(2)))
struct NamespaceTests {
    @Test(
        "prefix and glob patterns match the normalised URI",
        arguments: [
            (Namespace.Match.prefix("https://api.example.com/me/"), "https://api.example.com/me/profile", true),
            (.prefix("https://api.example.com/me/"), "https://api.example.com/mine", false),
            (.pattern("https://cdn.example.com/*.png"), "https://cdn.example.com/a/b/c.png", true),
            (.pattern("https://cdn.example.com/*.png"), "https://cdn.example.com/a.png?x=1", false),
            (.pattern("https://*.example.com/img?/*"), "https://static.example.com/img7/x", true),
            (.pattern("https://*.example.com/img?/*"), "https://static.example.com/img/x", false),
            (.pattern("*"), "https://anything/", true),
            (.pattern("a*b*c"), "aXbYbZc", true),
            (.pattern("a*b*c"), "aXbYbZ", false),
            (.all, "https://x/", true),
        ])
    func matching(match: Namespace.Match, uri: String, expected: Bool) {
        #expect(match.matches(uri) == expected)
    }

    @Test("user data gets a short TTL and its own directory while images keep a long TTL")
    func perNamespaceRules() async throws {
        let factory = StoreFactory(
            directory: TemporaryDirectory(),
            namespaces: [
                Namespace(name: "user", match: .prefix("https://api.example.com/me/"), timeToLive: 300),
                Namespace(name: "images", match: .pattern("https://cdn.example.com/*.png"), directoryName: "img", timeToLive: 7 * 86_400),
            ])
        let store = try factory.open()
        let now = factory.clock.now
        store.store("https://api.example.com/me/profile", body: [1], expiresIn: 86_400, now: now)
        store.store("https://cdn.example.com/logo.png", body: [2], expiresIn: 30 * 86_400, now: now)
        store.store("https://other.example.com/", body: [3], expiresIn: 86_400, now: now)
        await store.flush()
        let profile = try #require(await store.entry("https://api.example.com/me/profile"))
        #expect(profile.metadata.expiresAt == now.addingTimeInterval(300))
        #expect(profile.metadata.freshUntil == now.addingTimeInterval(60))  // already below the cap
        let logo = try #require(await store.entry("https://cdn.example.com/logo.png"))
        #expect(logo.metadata.expiresAt == now.addingTimeInterval(7 * 86_400))
        #expect(factory.directory!.entryFiles("user").count == 1)
        #expect(factory.directory!.entryFiles("img").count == 1)
        #expect(factory.directory!.entryFiles("default").count == 1)
        let rows = await store.entries()
        #expect(Set(rows.map(\.namespace)) == ["user", "images", "default"])
        factory.clock.advance(by: 301)
        #expect(await store.entry("https://api.example.com/me/profile") == nil)
        #expect(await store.entry("https://cdn.example.com/logo.png") != nil)
        await store.close()
    }

    @Test("a namespace's disk limit evicts only its own entries")
    func diskLimit() async throws {
        let factory = StoreFactory(
            directory: TemporaryDirectory(), memoryCapacity: 0,
            // Four entries of 1 KB fit, at two blocks each on disk; a fifth does not.
            namespaces: [Namespace(name: "small", match: .prefix("https://small.example/"), diskLimit: 9 * EntryFootprint.diskBlock)])
        let store = try factory.open()
        store.store("https://big.example/keep", body: Fixtures.body(1000), now: factory.clock.now)
        for index in 0..<5 {
            factory.clock.advance(by: 1)
            store.store("https://small.example/\(index)", body: Fixtures.body(1000), now: factory.clock.now)
        }
        await store.flush()
        #expect(await store.entry("https://big.example/keep") != nil)
        #expect(await store.entry("https://small.example/0") == nil)
        #expect(await store.entry("https://small.example/4") != nil)
        let small = await store.entries().filter { $0.namespace == "small" }
        #expect(small.count == 4)
        let evicted = factory.recorder.evictions(.capacity).map(\.id.key.uri)
        #expect(evicted.contains("https://small.example/0"), "evicted: \(evicted)")
        #expect(evicted.allSatisfy { $0.hasPrefix("https://small.example/") }, "evicted: \(evicted)")
        await store.close()
    }

    @Test("a namespace with a bad or duplicate directory name is refused")
    func invalidNamespaces() {
        var factory = StoreFactory(namespaces: [Namespace(name: "x", match: .all, directoryName: "../escape")])
        #expect {
            try factory.open()
        } throws: { error in
            guard case .invalidNamespace(let name, _) = error as? CacheStoreError else { return false }
            return name == "x"
        }
        factory.namespaces = [Namespace(name: "default2", match: .all, directoryName: "default")]
        #expect {
            try factory.open()
        } throws: { error in
            guard case .invalidNamespace(let name, let reason) = error as? CacheStoreError else { return false }
            // The default namespace, checked last, finds its directory taken.
            return name == "default" && reason == #"directory name "default" is used by another namespace"#
        }
    }
}
