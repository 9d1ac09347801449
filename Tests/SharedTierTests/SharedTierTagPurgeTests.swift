import CacheEvents
import CacheStore
@testable import CachingClient
import DemoOrigin
import Foundation
import HTTPCaching
import SharedTier
import Testing

/// Purges by tag, URL prefix and filter across two instances sharing one real PostgreSQL. The
/// demo origin tags `/items/{id}` with `Surrogate-Key: items item-{id}`.
@Suite("Shared tier: purges by tag, prefix and filter reach every instance", .timeLimit(.minutes(2)))
struct SharedTierTagPurgeTests {
    /// Two instances that both hold `/items/1`, `/items/2` and `/max-age/60` (b's copies came
    /// from the shared tier), and b's event log from then on.
    func twoInstancesHoldingThree(scanPageSize: Int = 1_000) async throws -> (Instances, SharedTierConfiguration, EventLog) {
        var tier = try await TestPostgres.freshDatabase(instance: "unused")
        tier.scanPageSize = scanPageSize
        let instances = try await Instances.start(2, tier: tier)
        let (a, b) = (instances.clients[0], instances.clients[1])
        for path in ["/items/1", "/items/2", "/max-age/60"] { _ = try await a.data(from: instances.url(path)) }
        await a.finishSharedTierWrites()
        for path in ["/items/1", "/items/2", "/max-age/60"] {
            #expect(try await b.data(from: instances.url(path)).outcome == .hit)
        }
        return (instances, tier, await EventLog(b))
    }

    func holds(_ client: CachingClient, _ url: String) async -> Bool {
        await !client.store.variants(for: CacheKey(method: "GET", uri: url)!).isEmpty
    }

    func rows(_ table: String, _ tier: SharedTierConfiguration) async throws -> Int? {
        try await TestPostgres.execute("SELECT count(*), 0 FROM \(table)", on: tier).first?.0
    }

    @Test("a tag purge on one instance removes the tagged entries on both and in the tables; untagged ones stay")
    func tagPurge() async throws {
        let (instances, tier, events) = try await twoInstancesHoldingThree()
        let (a, b) = (instances.clients[0], instances.clients[1])
        #expect(try await rows("cachescope_tags", tier) == 4, "items item-1, items item-2")

        let result = await a.perform(.purgeTag(tag: "item-1"))
        #expect(result.succeeded)
        #expect(result.message == "purged 1 entry tagged item-1; 1 entry from the shared tier, other instances told")
        let reached = await events.waitUntil(within: .seconds(10)) { log in
            log.purges.contains { $0.scope == .tag("item-1") && $0.origin == "a" && $0.count == 1 }
        }
        #expect(reached, "b dropped its copy and said a asked: \(events.purges)")
        for client in [a, b] {
            #expect(await !holds(client, instances.url("/items/1")))
            #expect(await holds(client, instances.url("/items/2")))
            #expect(await holds(client, instances.url("/max-age/60")))
        }
        #expect(try await rows("cachescope_entries", tier) == 2)
        #expect(try await rows("cachescope_tags", tier) == 2, "the purged entry's tags went with it")

        // Every instance, one tag: `items` covers what is left of /items.
        #expect(await b.perform(.purgeTag(tag: "items")).message.hasPrefix("purged 1 entry tagged items; 1 entry from the shared tier"))
        let aEmptied = await TestPostgresWait.until(within: .seconds(10)) { await !self.holds(a, instances.url("/items/2")) }
        #expect(aEmptied)
        #expect(try await rows("cachescope_entries", tier) == 1)
        #expect(try await rows("cachescope_tags", tier) == 0)
        #expect(await holds(a, instances.url("/max-age/60")))
        try await instances.stop()
    }

    @Test(
        "a prefix purge on one instance removes every entry under the URL on both and in the tables",
        arguments: [1_000, 1]  // the whole table in one page; a page of one row (three reads, two deletions, one notice)
    )
    func prefixPurge(scanPageSize: Int) async throws {
        let (instances, tier, events) = try await twoInstancesHoldingThree(scanPageSize: scanPageSize)
        let (a, b) = (instances.clients[0], instances.clients[1])
        let prefix = instances.url("/items/")
        let result = await a.perform(.purgePrefix(prefix: prefix))
        #expect(result.message == "purged 2 entries under \(prefix); 2 entries from the shared tier, other instances told")
        let reached = await events.waitUntil(within: .seconds(10)) { log in
            log.purges.contains { $0.scope == .prefix(prefix) && $0.origin == "a" && $0.count == 2 }
        }
        #expect(reached, "\(events.purges)")
        #expect(events.purges.filter { $0.origin == "a" }.count == 1, "told once: \(events.purges)")
        for client in [a, b] {
            #expect(await !holds(client, instances.url("/items/1")))
            #expect(await !holds(client, instances.url("/items/2")))
            #expect(await holds(client, instances.url("/max-age/60")))
        }
        #expect(try await rows("cachescope_entries", tier) == 1)
        #expect(try await rows("cachescope_bodies", tier) == 1)
        try await instances.stop()
    }

    @Test("a filter purge: each instance evaluates it over its own entries; the issuing one also deletes the matching rows")
    func filterPurge() async throws {
        let (instances, tier, events) = try await twoInstancesHoldingThree()
        let (a, b) = (instances.clients[0], instances.clients[1])
        let result = await a.perform(.purgeFilter(filter: "url:max-age | tag:item-2"))
        #expect(result.message == "purged 2 entries matching url:max-age | tag:item-2; 2 entries from the shared tier, other instances told")
        let reached = await events.waitUntil(within: .seconds(10)) { log in
            log.purges.contains { $0.scope == .filter("url:max-age | tag:item-2") && $0.origin == "a" && $0.count == 2 }
        }
        #expect(reached, "\(events.purges)")
        for client in [a, b] {
            #expect(await holds(client, instances.url("/items/1")))
            #expect(await !holds(client, instances.url("/items/2")))
            #expect(await !holds(client, instances.url("/max-age/60")))
        }
        #expect(try await rows("cachescope_entries", tier) == 1)
        try await instances.stop()
    }

    @Test("a filter that does not parse, or an empty tag or prefix, is refused with the reason and purges nothing")
    func badPurgesRefused() async throws {
        let (instances, tier, _) = try await twoInstancesHoldingThree()
        let a = instances.clients[0]
        let filter = await a.perform(.purgeFilter(filter: "outcome:great"))
        #expect(!filter.succeeded)
        #expect(filter.message.hasPrefix("purge filter \"outcome:great\": column 9: expected an outcome"), "\(filter.message)")
        let tag = await a.perform(.purgeTag(tag: "two words"))
        #expect(tag.message == "purge tag: a tag is visible ASCII without spaces; \"two words\" holds U+20")
        let prefix = await a.perform(.purgePrefix(prefix: ""))
        #expect(!prefix.succeeded)
        #expect(try await rows("cachescope_entries", tier) == 3)
        try await instances.stop()
    }

    @Test("a tier at schema version 1 (before tags) migrates at connect; its entries stay readable")
    func schemaMigratesFromVersion1() async throws {
        let tier = try await TestPostgres.freshDatabase(instance: "unused")
        do {
            let instances = try await Instances.start(1, tier: tier)
            _ = try await instances.clients[0].data(from: instances.url("/max-age/60"))
            await instances.clients[0].finishSharedTierWrites()
            try await instances.stop()
        }
        try await TestPostgres.execute("DROP TABLE cachescope_tags", on: tier)
        try await TestPostgres.execute("DELETE FROM cachescope_schema WHERE version = 2", on: tier)
        let instances = try await Instances.start(1, tier: tier)
        #expect(try await TestPostgres.execute("SELECT max(version), 0 FROM cachescope_schema", on: tier).first?.0 == 2)
        #expect(try await rows("cachescope_entries", tier) == 1, "nothing stored was lost")
        _ = try await instances.clients[0].data(from: instances.url("/items/7"))
        await instances.clients[0].finishSharedTierWrites()
        #expect(try await rows("cachescope_tags", tier) == 2)
        try await instances.stop()
    }
}

/// Polls an asynchronous condition every 10 ms, at most `limit`.
enum TestPostgresWait {
    static func until(within limit: Duration, _ condition: () async -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return await condition()
    }
}
