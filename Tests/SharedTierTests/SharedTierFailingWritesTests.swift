import CacheStore
@testable import CachingClient
import Foundation
import HTTPTypes
import Logging
import SharedTier
import Testing

@Suite("Shared tier: writes that always fail", .timeLimit(.minutes(2)))
struct SharedTierFailingWritesTests {
    /// With writes refused and lookups answered, each lookup ended the outage the last write
    /// started, and the next write started another: a warning a second (a hunt of 27 November).
    @Test("writes refused on every try while lookups succeed: one warning, not one a second")
    func failingWritesWarnOnce() async throws {
        let tier = try await TestPostgres.freshDatabase(instance: "unused")
        let log = CapturedLog()
        let instances = try await Instances.start(1, tier: tier) { $0.store.logger = log.logger() }
        let client = instances.clients[0]
        let events = await EventLog(client)
        _ = try await client.data(from: instances.url("/max-age/100"))
        await client.finishSharedTierWrites()
        try await TestPostgres.execute(
            "CREATE FUNCTION refuse_writes() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'no space left on device'; END $$",
            on: tier)
        try await TestPostgres.execute(
            "CREATE TRIGGER refuse BEFORE INSERT OR UPDATE ON cachescope_entries FOR EACH ROW EXECUTE FUNCTION refuse_writes()", on: tier)

        // Past three backoffs of one second: a lookup probes after each, and succeeds.
        let start = ContinuousClock.now
        var n = 101
        while ContinuousClock.now - start < .milliseconds(3_600) {
            let answer = try await client.data(from: instances.url("/max-age/\(n)"))
            #expect(answer.response.status.code == 200)
            await client.finishSharedTierWrites()
            try await Task.sleep(for: .milliseconds(150))
            n += 1
        }
        let warnings = events.sharedTierWarnings
        #expect(!warnings.isEmpty && warnings.allSatisfy { $0.contains("no space left on device") }, "\(warnings)")
        #expect(Set(warnings).count == warnings.count, "each reason warned of once: \(warnings)")
        #expect(warnings.count <= 2, "\(warnings)")
        // The log too: each outage not warned of ends without a line (it had been one a second).
        let recoveries = log.messages(at: .info).filter { $0.contains("answers again") }
        #expect(recoveries.count <= warnings.count, "\(recoveries.count) recoveries logged for \(warnings.count) warnings")
        try await instances.stop()
    }
}
