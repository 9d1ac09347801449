import CacheStore
import CacheEvents
import CachingClient
import Foundation
import HTTPCaching
import Testing
import DemoOrigin

@Suite("Commands: purge, purge all, purge expired, refresh, reload", .timeLimit(.minutes(2)))
struct CommandTests {
    @Test("purge removes every variant of a key and is reported")
    func purge() async throws {
        try await Harness.start().runLogged { harness, log in
            _ = try await harness.get("/max-age/60")
            let result = await harness.client.perform(.purge(key: harness.url("/max-age/60")))
            #expect(result.succeeded)
            #expect(result.message.contains("purged 1 entry"))
            #expect(try await harness.get("/max-age/60").outcome == .miss)
            #expect(await log.wait { $0.contains { if case .purged(let p) = $0.kind { p.scope.word == "key" && p.key == "GET " + harness.url("/max-age/60") && p.count == 1 } else { false } } })
        }
    }

    @Test("a purge names the key as given: its URL for GET, its method too for any other")
    func purgeNamesTheMethod() async throws {
        try await Harness.start().run { harness in
            _ = try await harness.get("/max-age/60")
            let post = await harness.client.perform(.purge(key: "POST " + harness.url("/max-age/60")))
            #expect(post.message == "purged 0 entries of POST " + harness.url("/max-age/60") + " (nothing is stored under that key)")
            #expect(try await harness.get("/max-age/60").outcome == .hit, "the GET's entry is not the POST's")
            let get = await harness.client.perform(.purge(key: "GET " + harness.url("/max-age/60")))
            #expect(get.message == "purged 1 entry of " + harness.url("/max-age/60"))
        }
    }

    /// `!url~"(b+)+$"` given up on a URL took it under `!`, and the purge removed it and every
    /// later entry (a review of 27 November).
    @Test("a purge by filter whose pattern is given up on a stored entry purges nothing, saying why")
    func purgeByGivenUpFilter() async throws {
        try await Harness.start().run { harness in
            let hostile = "/max-age/60?q=" + String(repeating: "b", count: 40) + "!"
            _ = try await harness.get(hostile)
            _ = try await harness.get("/max-age/600")
            let result = await harness.client.perform(.purgeFilter(filter: #"!url~"(b+)+$""#))
            #expect(!result.succeeded)
            #expect(result.message.hasPrefix(#"purge filter "!url~"(b+)+$"": nothing purged: the filter's pattern took too long"#), "\(result.message)")
            #expect(try await harness.get(hostile).outcome == .hit, "the undecided entry is still stored")
            #expect(try await harness.get("/max-age/600").outcome == .hit)
        }
    }

    @Test("purge all and purge expired")
    func purgeAllAndExpired() async throws {
        try await Harness.start().run { harness in
            _ = try await harness.get("/max-age/1")
            _ = try await harness.get("/max-age/600")
            harness.clock.advance(by: 5)
            let expired = await harness.client.perform(.purgeExpired)
            #expect(expired.message.contains("purged 1 entry"))
            #expect(try await harness.get("/max-age/600").outcome == .hit)
            let all = await harness.client.perform(.purgeAll)
            #expect(all.message.contains("purged all 1 entry"))
            #expect(try await harness.get("/max-age/600").outcome == .miss)
        }
    }

    @Test("refresh sends a conditional request even for a fresh entry; the 304 arrives")
    func refresh() async throws {
        try await Harness.start().run { harness in
            _ = try await harness.get("/max-age/600")
            let result = await harness.client.perform(.refresh(key: "GET " + harness.url("/max-age/600"), variant: nil))
            #expect(result.succeeded)
            #expect(result.message.contains("revalidated 200"))
            #expect(harness.origin.requestCount(path: "/max-age/600") == 2)
            let sent = try #require(harness.origin.lastRequestHeaders(path: "/max-age/600"))
            #expect(sent.contains { $0.name.lowercased() == "if-none-match" })
        }
    }

    @Test("reload fetches unconditionally and replaces the entry")
    func reload() async throws {
        try await Harness.start().run { harness in
            _ = try await harness.get("/max-age/600")
            let result = await harness.client.perform(.reload(key: harness.url("/max-age/600"), variant: nil))
            #expect(result.message.contains("bypass 200"))
            let sent = try #require(harness.origin.lastRequestHeaders(path: "/max-age/600"))
            #expect(!sent.contains { $0.name.lowercased() == "if-none-match" })
            #expect(try await harness.get("/max-age/600").outcome == .hit)
        }
    }

    @Test("commands on unknown keys fail with a message instead of throwing")
    func badCommands() async throws {
        try await Harness.start().run { harness in
            let refresh = await harness.client.perform(.refresh(key: harness.url("/never"), variant: nil))
            #expect(!refresh.succeeded)
            #expect(refresh.message.contains("not in the cache"))
            let garbage = await harness.client.perform(.purge(key: "not a url"))
            #expect(!garbage.succeeded)
            #expect(garbage.message.contains("not a cache key or URL"))
        }
    }
}
