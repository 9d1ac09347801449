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

    @Test("a purge while the database is down: local copies go at once, the purged rows do not come back here, the tier and the other instance get it when it answers again")
    func purgeDuringOutage() async throws {
        let server = try await Self.ownServer.value
        try await server.resume()  // in case a test before this one failed while it was paused
        var tier = try await TestPostgres.freshDatabase(
            on: server.url, instance: "unused", queryTimeout: TestPostgres.productionQueryTimeout)
        tier.maximumBackoff = .seconds(1)
        let instances = try await Instances.start(2, tier: tier)
        let (a, b) = (instances.clients[0], instances.clients[1])
        let url = instances.url("/max-age/60")
        _ = try await a.data(from: url)
        await a.finishSharedTierWrites()
        #expect(try await b.data(from: url).outcome == .hit, "b has it from the tier")
        let events = await EventLog(b)

        try await server.pause()
        let result = await a.perform(.purge(key: url))
        try await server.resume()
        #expect(result.succeeded)
        #expect(result.message.contains("purged 1 entry"))
        #expect(result.message.contains("could not be reached: the purge reaches it and the other instances when it answers again"), "\(result.message)")

        // Past the outage's backoff a's lookups reach the tier again, which still holds the
        // row: a must not serve what it purged (it did, as a hit, before 27 November 2026).
        try await Task.sleep(for: .milliseconds(1_500))
        #expect(try await a.data(from: url).outcome == .miss)
        #expect(instances.origin.requestCount(path: "/max-age/60") == 2)
        // Its recovery sent the purge: b drops its copy, told by a.
        let reached = await events.waitUntil(within: .seconds(10)) { $0.purges.contains { $0.origin == "a" } }
        #expect(reached, "b saw a's purge once the tier answered again")
        #expect(events.purges.first { $0.origin == "a" }?.count == 1, "b dropped its own copy")
        try await instances.stop()
    }
}
