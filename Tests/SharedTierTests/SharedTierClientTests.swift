import CacheEvents
import CacheStore
@testable import CachingClient
import DemoOrigin
import Foundation
import HTTPCaching
import HTTPTypes
import NIOCore
@testable import SharedTier
import Testing

@Suite("Shared tier: instances sharing one PostgreSQL", .timeLimit(.minutes(2)))
struct SharedTierClientTests {
    @Test("a miss on one instance is a hit on another, without an origin request")
    func missOnOneHitOnAnother() async throws {
        let instances = try await Instances.start(2, tier: TestPostgres.freshDatabase(instance: "unused"))
        let (a, b) = (instances.clients[0], instances.clients[1])
        let first = try await a.data(from: instances.url("/max-age/60"))
        #expect(first.outcome == .miss)
        await a.finishSharedTierWrites()

        let second = try await b.data(from: instances.url("/max-age/60"))
        #expect(second.outcome == .hit)
        #expect(second.body == first.body)
        #expect(instances.origin.requestCount(path: "/max-age/60") == 1, "b was answered from the shared tier")
        // Promoted into b's own tiers: the next request does not ask the shared tier again.
        let key = try #require(CacheKey(method: "GET", uri: instances.url("/max-age/60")))
        #expect(b.store.memoryVariants(for: key)?.count == 1)
        try await instances.stop()
    }

    @Test("concurrent misses on one instance are answered from the tier, each with its own entry")
    func concurrentLookupsEachGetTheirOwnEntry() async throws {
        let instances = try await Instances.start(2, tier: TestPostgres.freshDatabase(instance: "unused"))
        let (a, b) = (instances.clients[0], instances.clients[1])
        let paths = (0..<24).map { "/max-age/\(60 + $0)" }
        var bodies: [String: [UInt8]] = [:]
        for path in paths { bodies[path] = Array(try await a.data(from: instances.url(path)).body) }
        await a.finishSharedTierWrites()

        let answers = try await withThrowingTaskGroup(of: (String, CacheOutcome, [UInt8]).self) { group in
            for path in paths {
                group.addTask {
                    let response = try await b.data(from: instances.url(path))
                    return (path, response.outcome, Array(response.body))
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = ($1.1, $1.2) }
        }
        for path in paths {
            #expect(answers[path]?.0 == .hit, "\(path) from the shared tier")
            #expect(answers[path]?.1 == bodies[path], "\(path) got its own body")
            #expect(instances.origin.requestCount(path: path) == 1, "\(path) reached the origin once, for a")
        }
        // One query in flight per instance: the others waited and went together.
        #expect((b.sharedTier?.lookups.largestBatch ?? 0) > 1)

        // The batch query itself: each key's row comes back under its own digest, and opens
        // only for its own key; a key the tier does not hold has none.
        let tier = try #require(a.sharedTier)
        let keys = try paths.prefix(5).map { try #require(CacheKey(method: "GET", uri: instances.url($0))) }
        let absent = try #require(CacheKey(method: "GET", uri: instances.url("/max-age/999")))
        let digests = (keys + [absent]).map { ByteBuffer(bytes: tier.codec.keyDigest(for: $0)) }
        let found = try #require(await tier.lookUp(digests))
        #expect(found[digests[5]] == nil, "nothing for a key the tier does not hold")
        for (key, digest) in zip(keys, digests) {
            let row = try #require(found[digest]?.first, "\(key)")
            #expect(found[digest]?.count == 1)
            let opened = try tier.codec.open(
                id: Array(row.id.readableBytesView), metadata: Array(row.metadata.readableBytesView),
                body: Array(row.body.readableBytesView), for: key)
            #expect(opened.stored.key == key)
        }
        try await instances.stop()
    }

    @Test("a response the origin marks no-store never reaches the shared tier")
    func noStoreStaysOut() async throws {
        let instances = try await Instances.start(2, tier: TestPostgres.freshDatabase(instance: "unused"))
        _ = try await instances.clients[0].data(from: instances.url("/no-store"))
        await instances.clients[0].finishSharedTierWrites()
        let second = try await instances.clients[1].data(from: instances.url("/no-store"))
        #expect(second.outcome != .hit)
        #expect(instances.origin.requestCount(path: "/no-store") == 2)
        try await instances.stop()
    }

    /// A private client (`get`, an app) wrote what it may keep for its one user into the
    /// tier, and a proxy on the same database served it to anyone (hunt D).
    @Test("what a private instance keeps for its user — private, or asked with Authorization — never reaches the tier a shared one reads")
    func privateStaysOut() async throws {
        let instances = try await Instances.start(2, tier: TestPostgres.freshDatabase(instance: "unused")) {
            if $0.sharedTier?.instanceName == "b" { $0.mode = .shared }
        }
        let (user, proxy) = (instances.clients[0], instances.clients[1])
        var authorized = HTTPFields()
        authorized[.authorization] = "Bearer alice"
        _ = try await user.data(from: instances.url("/private/60"))
        _ = try await user.data(from: instances.url("/max-age/61"), headers: authorized)
        _ = try await user.data(from: instances.url("/max-age/62"))  // the control: shared alike
        #expect(try await user.data(from: instances.url("/private/60")).outcome == .hit, "kept in the user's own tiers")
        await user.finishSharedTierWrites()

        #expect(try await proxy.data(from: instances.url("/private/60")).outcome == .miss)
        #expect(try await proxy.data(from: instances.url("/max-age/61")).outcome == .miss)
        #expect(try await proxy.data(from: instances.url("/max-age/62")).outcome == .hit)
        #expect(instances.origin.requestCount(path: "/private/60") == 2)
        #expect(instances.origin.requestCount(path: "/max-age/61") == 2)
        #expect(instances.origin.requestCount(path: "/max-age/62") == 1)
        try await instances.stop()
    }

    /// An instance holding one `Vary` variant of a key never asked the tier for another: the
    /// request went to the origin though another instance had stored it.
    @Test("a variant held here that Vary does not select sends the request to the tier, which has the other instance's")
    func otherVariantFromTheTier() async throws {
        let instances = try await Instances.start(2, tier: TestPostgres.freshDatabase(instance: "unused"))
        let (a, b) = (instances.clients[0], instances.clients[1])
        func language(_ value: String) -> HTTPFields {
            var fields = HTTPFields()
            fields[.acceptLanguage] = value
            return fields
        }
        let english = try await b.data(from: instances.url("/vary/lang"), headers: language("en"))
        #expect(english.outcome == .miss)
        await b.finishSharedTierWrites()
        let french = try await a.data(from: instances.url("/vary/lang"), headers: language("fr"))
        #expect(french.outcome == .miss, "the tier's English variant does not answer French")
        await a.finishSharedTierWrites()

        let fromTier = try await b.data(from: instances.url("/vary/lang"), headers: language("fr"))
        #expect(fromTier.outcome == .hit, "a's French variant, from the tier: \(fromTier.reason)")
        #expect(fromTier.body == french.body)
        #expect(instances.origin.requestCount(path: "/vary/lang") == 2, "a's fr and b's en only")
        // b's own English variant is still served, and was not replaced.
        let again = try await b.data(from: instances.url("/vary/lang"), headers: language("en"))
        #expect(again.outcome == .hit)
        #expect(again.body == english.body)
        // A request that may not use the network asks the tier too.
        _ = try await a.data(from: instances.url("/vary/lang"), headers: language("de"))
        await a.finishSharedTierWrites()
        let offline = try await b.data(from: instances.url("/vary/lang"), headers: language("de"), policy: .returnCacheDataDontLoad)
        #expect(offline.outcome == .hit, "\(offline.reason)")
        #expect(instances.origin.requestCount(path: "/vary/lang") == 3, "a's fr and de, b's en")
        try await instances.stop()
    }

    /// A read-only proxy (`willCache` refusing everything) copied every shared-tier hit into
    /// its own tiers, its `--cache-dir` included.
    @Test("an instance whose willCache refuses to store serves the tier's rows without copying them")
    func refusedCopiesAreServedUnkept() async throws {
        let instances = try await Instances.start(2, tier: TestPostgres.freshDatabase(instance: "unused")) {
            if $0.sharedTier?.instanceName == "b" { $0.willCache = { _, _ in .store(.notAllowed) } }
        }
        let (writer, reader) = (instances.clients[0], instances.clients[1])
        let first = try await writer.data(from: instances.url("/max-age/60"))
        await writer.finishSharedTierWrites()
        let key = try #require(CacheKey(method: "GET", uri: instances.url("/max-age/60")))
        for round in 1...2 {
            let answer = try await reader.data(from: instances.url("/max-age/60"))
            #expect(answer.outcome == .hit, "round \(round): from the shared tier")
            #expect(answer.body == first.body)
            #expect(await reader.store.variants(for: key).isEmpty, "round \(round): nothing kept in the reader's tiers, memory or disk")
        }
        #expect(instances.origin.requestCount(path: "/max-age/60") == 1)
        try await instances.stop()
    }

    /// A private client wrote its own freshness (`max-age=1`) into the row, and a shared
    /// instance that copied the row showed a TTL of one second for what it may keep for 600.
    @Test("a private instance's row is fresh for as long as a shared cache may keep it; each copy for as long as its reader's rules say")
    func privateWriterRowHasSharedFreshness() async throws {
        let instances = try await Instances.start(3, tier: TestPostgres.freshDatabase(instance: "unused")) {
            if $0.sharedTier?.instanceName == "b" { $0.mode = .shared }
        }
        let (user, proxy, otherUser) = (instances.clients[0], instances.clients[1], instances.clients[2])
        _ = try await user.data(from: instances.url("/s-maxage/600"))
        await user.finishSharedTierWrites()
        let key = try #require(CacheKey(method: "GET", uri: instances.url("/s-maxage/600")))
        let own = try #require(user.store.memoryVariants(for: key)?.first?.metadata.freshUntil)
        #expect(own.timeIntervalSinceNow < 2, "the user's own copy is fresh for max-age=1")

        let answer = try await proxy.data(from: instances.url("/s-maxage/600"))
        #expect(answer.outcome == .hit)
        let copied = try #require(proxy.store.memoryVariants(for: key)?.first?.metadata.freshUntil)
        #expect(copied.timeIntervalSinceNow > 590, "the row says s-maxage=600, as a shared cache reads it")
        // Another private instance copies the same row with its own rules: max-age=1.
        _ = try await otherUser.data(from: instances.url("/s-maxage/600"))
        let privateCopy = try #require(otherUser.store.memoryVariants(for: key)?.first?.metadata.freshUntil)
        #expect(privateCopy.timeIntervalSinceNow < 2, "a private reader counts max-age")
        try await instances.stop()
    }

    /// A body row damaged in the database stayed damaged: every reader left it out and
    /// fetched from the origin, and the rewrite skipped a body row of the same body id.
    @Test("a damaged body row is left out, and the next store of the same response repairs it")
    func damagedBodyRepaired() async throws {
        let tier = try await TestPostgres.freshDatabase(instance: "unused")
        let instances = try await Instances.start(3, tier: tier)
        let url = instances.url("/max-age/60")
        let original = try await instances.clients[0].data(from: url)
        await instances.clients[0].finishSharedTierWrites()
        _ = try await TestPostgres.execute("UPDATE cachescope_bodies SET body = overlay(body placing '\\x42'::bytea from 15 for 1)", on: tier)

        let second = try await instances.clients[1].data(from: url)
        #expect(second.outcome == .miss && second.body == original.body, "the damaged row is left out")
        await instances.clients[1].finishSharedTierWrites()
        let third = try await instances.clients[2].data(from: url)
        #expect(third.outcome == .hit && third.body == original.body, "the second instance's store repaired it")
        #expect(instances.origin.requestCount(path: "/max-age/60") == 2)
        try await instances.stop()
    }

    @Test("a purge on one instance reaches the other, naming where it came from")
    func purgeReachesEveryInstance() async throws {
        let tier = try await TestPostgres.freshDatabase(instance: "unused")
        let instances = try await Instances.start(2, tier: tier)
        let (a, b) = (instances.clients[0], instances.clients[1])
        let url = instances.url("/max-age/60")
        _ = try await a.data(from: url)
        await a.finishSharedTierWrites()
        #expect(try await b.data(from: url).outcome == .hit)
        let events = await EventLog(b)

        let purged = await a.perform(.purge(key: url))
        #expect(purged.succeeded)
        #expect(purged.message.contains("other instances told"), "\(purged.message)")
        let reached = await events.waitUntil(within: .seconds(10)) { $0.purges.contains { $0.origin == "a" } }
        #expect(reached, "b saw a's purge")
        #expect(events.purges.first?.count == 1, "b dropped its own copy")
        #expect(try await TestPostgres.execute("SELECT count(*), 0 FROM cachescope_entries", on: tier).first?.0 == 0)

        let again = try await b.data(from: url)
        #expect(again.outcome == .miss, "gone from b's tiers and from the shared one")
        #expect(instances.origin.requestCount(path: "/max-age/60") == 2)
        try await instances.stop()
    }

    @Test("purge all empties the shared table and every instance")
    func purgeAllReachesEveryInstance() async throws {
        let tier = try await TestPostgres.freshDatabase(instance: "unused")
        let instances = try await Instances.start(2, tier: tier)
        let (a, b) = (instances.clients[0], instances.clients[1])
        for path in ["/max-age/60", "/max-age/61"] { _ = try await b.data(from: instances.url(path)) }
        await b.finishSharedTierWrites()
        let events = await EventLog(b)
        _ = await a.perform(.purgeAll)
        #expect(await events.waitUntil(within: .seconds(10)) { $0.purges.contains { $0.scope == .all && $0.origin == "a" } })
        #expect(b.store.stats().entryCount == 0)
        #expect(try await TestPostgres.execute("SELECT count(*), 0 FROM cachescope_entries", on: tier).first?.0 == 0)
        try await instances.stop()
    }

    @Test("a 304 rewrites the shared entry's metadata, never its body")
    func notModifiedUpdatesMetadataOnly() async throws {
        let tier = try await TestPostgres.freshDatabase(instance: "unused")
        let instances = try await Instances.start(1, tier: tier)
        let client = instances.clients[0]
        let url = instances.url("/no-cache")
        _ = try await client.data(from: url)
        await client.finishSharedTierWrites()
        let before = try await TestPostgres.execute("SELECT xmin::text::bigint, 0 FROM cachescope_bodies", on: tier)
        let metadataBefore = try await TestPostgres.execute("SELECT xmin::text::bigint, 0 FROM cachescope_entries", on: tier)
        let revalidated = try await client.data(from: url)
        #expect(revalidated.outcome == .revalidated)
        await client.finishSharedTierWrites()
        let after = try await TestPostgres.execute("SELECT xmin::text::bigint, 0 FROM cachescope_bodies", on: tier)
        let metadataAfter = try await TestPostgres.execute("SELECT xmin::text::bigint, 0 FROM cachescope_entries", on: tier)
        #expect(before.count == 1)
        #expect(after.map(\.0) == before.map(\.0), "the body row was not written again")
        #expect(metadataAfter.map(\.0) != metadataBefore.map(\.0), "the metadata row was")
        try await instances.stop()
    }

    @Test("with the store's encryption on, the shared tier holds no plain body, and only the same key reads it")
    func encryptedEntries() async throws {
        let tier = try await TestPostgres.freshDatabase(instance: "unused")
        let key = EncryptionKey.random()
        let instances = try await Instances.start(2, tier: tier) { configuration in
            configuration.store.defaultNamespace.encryptionKey = key
        }
        let first = try await instances.clients[0].data(from: instances.url("/max-age/60"))
        await instances.clients[0].finishSharedTierWrites()
        let plainRows = try await TestPostgres.execute(
            "SELECT count(*), 0 FROM cachescope_bodies WHERE position('\\x\(first.body.map { String(format: "%02x", $0) }.joined())'::bytea IN body) > 0",
            on: tier)
        #expect(plainRows.first?.0 == 0, "the body is not stored in the clear")
        #expect(try await instances.clients[1].data(from: instances.url("/max-age/60")).outcome == .hit)

        let stranger = try await Instances.start(1, tier: tier) { configuration in
            configuration.store.defaultNamespace.encryptionKey = EncryptionKey.random()
        }
        let strangers = try await stranger.clients[0].data(from: instances.url("/max-age/60"))
        #expect(strangers.outcome == .miss, "another key finds nothing it can read")
        #expect(instances.origin.requestCount(path: "/max-age/60") == 2)
        try await stranger.stop()
        try await instances.stop()
    }
}
