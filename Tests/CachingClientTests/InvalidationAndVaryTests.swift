import CacheEvents
import CacheStore
import CachingClient
import Foundation
import HTTPCaching
import HTTPTypes
import Testing
import DemoOrigin

@Suite("Invalidation (RFC 9111 §4.4), Vary (§4.1) and redirects through the client", .timeLimit(.minutes(2)))
struct InvalidationAndVaryTests {
    @Test("a POST invalidates the stored GET of its URI")
    func postInvalidates() async throws {
        try await Harness.start().run { harness in
            let before = try await harness.get("/items/7")
            #expect(try await harness.get("/items/7").outcome == .hit)
            let post = try await harness.send(.post, "/items/7")
            #expect(post.outcome == .bypass)
            let after = try await harness.get("/items/7")
            #expect(after.outcome == .miss)
            #expect(after.body != before.body)
            #expect(harness.origin.requestCount(path: "/items/7") == 3)
        }
    }

    @Test("what a PUT invalidates leaves as `invalidated`, not as a purge: no purge event, no purge eviction")
    func invalidationIsNotAPurge() async throws {
        try await Harness.start().runLogged { harness, log in
            _ = try await harness.get("/items/8")
            _ = try await harness.send(.put, "/items/8")
            #expect(await log.wait { events in events.contains { if case .evicted = $0.kind { true } else { false } } })
            let evictions = log.all.compactMap { event -> Evicted? in
                if case .evicted(let evicted) = event.kind { evicted } else { nil }
            }
            #expect(evictions.map(\.reason) == [.invalidated])
            #expect(evictions.first?.entry.key.hasSuffix("/items/8") == true)
            #expect(!log.all.contains { $0.kind.name == "purged" })
        }
    }

    @Test("a GET with a body bypasses the cache and is not stored (RFC 9110 §9.3.1: the key leaves the body out)")
    func getWithBody() async throws {
        try await Harness.start().run { harness in
            let request = try #require(CachingClient.request(url: harness.url("/max-age/60")))
            let fat = try await harness.client.data(for: request, body: Data("evil=1234".utf8))
            #expect(fat.outcome == .bypass)
            #expect(fat.reason == "a GET with content (its answer may depend on it)", "\(fat.reason)")
            #expect(try await harness.get("/max-age/60").outcome == .miss)
            #expect(harness.origin.requestCount(path: "/max-age/60") == 2)
            // One that forbids the network gets nothing: it is not sent either.
            let onlyIfCached = try #require(CachingClient.request(url: harness.url("/max-age/60"), headers: [.cacheControl: "only-if-cached"]))
            #expect(try await harness.client.data(for: onlyIfCached, body: Data("x".utf8)).outcome == .error)
            #expect(harness.origin.requestCount(path: "/max-age/60") == 2)
        }
    }

    @Test("a failed unsafe request does not invalidate")
    func failedUnsafeRequestKeepsEntry() async throws {
        try await Harness.start().run { harness in
            _ = try await harness.get("/max-age/60")
            let post = try await harness.send(.post, "/max-age/60")
            #expect(post.response.status.code >= 400)
            #expect(try await harness.get("/max-age/60").outcome == .hit)
        }
    }

    @Test("Vary: Accept-Language stores one variant per language")
    func varyVariants() async throws {
        try await Harness.start().run { harness in
            let en = try await harness.get("/vary/lang", headers: [.acceptLanguage: "en"])
            let fr = try await harness.get("/vary/lang", headers: [.acceptLanguage: "fr"])
            #expect(en.outcome == .miss)
            #expect(fr.outcome == .miss)
            #expect(fr.reason == "Vary mismatch: Accept-Language")
            #expect(try await harness.get("/vary/lang", headers: [.acceptLanguage: "en"]).outcome == .hit)
            #expect(try await harness.get("/vary/lang", headers: [.acceptLanguage: "fr"]).outcome == .hit)
            #expect(harness.origin.requestCount(path: "/vary/lang") == 2)
        }
    }

    @Test("no-store responses are never stored and the reason says so")
    func noStore() async throws {
        try await Harness.start().run { harness in
            let first = try await harness.get("/no-store")
            let second = try await harness.get("/no-store")
            #expect(first.outcome == .miss)
            #expect(first.reason == "no-store")
            #expect(second.outcome == .miss)
            #expect(harness.origin.requestCount(path: "/no-store") == 2)
        }
    }
}
