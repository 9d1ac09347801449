import CacheEvents
import CacheStore
@testable import CachingClient
import DemoOrigin
import Foundation
import HTTPCaching
import HTTPTypes
import Logging
import SharedTier
import Testing

/// Each test stops the database under a running client, so they share a server of their own
/// (never the one the other suites use), one test at a time, each leaving it running.
@Suite("Shared tier: failing open", .serialized, .timeLimit(.minutes(2)))
struct SharedTierOutageTests {
    private static let ownServer = Task<OwnServer, any Error> { try await OwnServer.start() }

    @Test("database stopped mid-run: every request answered, one warning, recovery after restart")
    func databaseStoppedMidRun() async throws {
        let server = try await Self.ownServer.value
        try await server.resume()  // in case a test before this one failed while it was paused
        var tier = try await TestPostgres.freshDatabase(
            on: server.url, instance: "unused", queryTimeout: TestPostgres.productionQueryTimeout)
        tier.maximumBackoff = .seconds(2)
        let log = CapturedLog()
        let instances = try await Instances.start(1, tier: tier) { $0.store.logger = log.logger() }
        let client = instances.clients[0]
        let events = await EventLog(client)
        _ = try await client.data(from: instances.url("/max-age/100"))
        await client.finishSharedTierWrites()

        try await server.pause()
        for n in 101...110 {
            let answer = try await client.data(from: instances.url("/max-age/\(n)"))
            #expect(answer.response.status.code == 200, "answered while the database is down")
            #expect(answer.outcome == .miss)
        }
        await client.finishSharedTierWrites()
        #expect(events.sharedTierWarnings.count == 1, "one warning for the outage, not one per request: \(events.sharedTierWarnings)")
        #expect(events.sharedTierWarnings.first?.contains("requests go on without it") == true)

        try await server.resume()
        // The tier is probed again after its backoff (1 s, then 2 s at most here): within 20 s
        // a new response reaches the table.
        var recovered = false
        for attempt in 0..<40 where !recovered {
            _ = try await client.data(from: instances.url("/max-age/\(200 + attempt)"))
            await client.finishSharedTierWrites()
            let rows = try await TestPostgres.execute("SELECT count(*), 0 FROM cachescope_entries", on: tier)
            recovered = (rows.first?.0 ?? 0) > 1
            if !recovered { try await Task.sleep(for: .milliseconds(500)) }
        }
        #expect(recovered, "responses reach the shared tier again after the restart")
        #expect(events.sharedTierWarnings.count == 1)
        // The operator's log says it too, once, before the recovery it reports.
        let warnings = log.messages(at: .warning).filter { $0.contains("shared tier") }
        #expect(warnings.count == 1 && warnings.first?.contains("unavailable") == true, "\(warnings)")
        #expect(log.messages(at: .info).contains("shared tier answers again"))
        try await instances.stop()
    }

    @Test("a client started while its database is still down (started beside it) waits for it within connectTimeout")
    func startBeforeTheDatabase() async throws {
        let server = try await Self.ownServer.value
        try await server.resume()  // in case a test before this one failed while it was paused
        var tier = try await TestPostgres.freshDatabase(on: server.url, instance: "early")
        tier.connectTimeout = .seconds(30)
        try await server.pause()
        let resumed = Task {
            try await Task.sleep(for: .seconds(1))
            try await server.resume()
        }
        var configuration = CachingClientConfiguration()
        configuration.sharedTier = tier
        let client = try await CachingClient(configuration: configuration)
        try await resumed.value
        try await client.shutdown()

        // A server that stays down is reported with the reason once connectTimeout has passed.
        try await server.pause()
        tier.connectTimeout = .seconds(2)
        configuration.sharedTier = tier
        let started = ContinuousClock.now
        let error = await #expect(throws: SharedTierError.self) { _ = try await CachingClient(configuration: configuration) }
        #expect(ContinuousClock.now - started >= .milliseconds(1_500), "tried again until the timeout")
        #expect(error?.description.contains(": connection refused; ") == true, "\(String(describing: error))")
        try await server.resume()
    }

    @Test("a purge while the database is down purges locally and says the other instances were not told")
    func purgeDuringOutage() async throws {
        let server = try await Self.ownServer.value
        try await server.resume()  // in case a test before this one failed while it was paused
        let tier = try await TestPostgres.freshDatabase(
            on: server.url, instance: "unused", queryTimeout: TestPostgres.productionQueryTimeout)
        let instances = try await Instances.start(1, tier: tier)
        let client = instances.clients[0]
        _ = try await client.data(from: instances.url("/max-age/60"))
        try await server.pause()
        let result = await client.perform(.purge(key: instances.url("/max-age/60")))
        try await server.resume()
        #expect(result.succeeded)
        #expect(result.message.contains("purged 1 entry"))
        #expect(result.message.contains("could not be reached"), "\(result.message)")
        try await instances.stop()
    }
}
