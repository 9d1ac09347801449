import AsyncHTTPClient
import CachingClient
import DemoOrigin
import Foundation
import HTTPTypes
import PostgresNIO
import SharedTier

/// The instances the benchmark measures, all on one demo origin and one `HTTPClient`:
/// a writer that fills the shared tier, and two readers that find it there (their own memory
/// tiers start empty and each request is for a URL they have not seen). The writer stores
/// every response but those of URLs with `?unstored=` (its `willCache` says `.notAllowed`),
/// the peers of its stored misses.
struct Fleet: Sendable {
    let origin: DemoOrigin
    let shared: HTTPClient
    let tier: SharedTierConfiguration
    let writer: CachingClient
    let readers: [CachingClient]
    /// The benchmark's own connection to the tier's database.
    let database: PostgresConnection

    static func start() async throws -> Fleet {
        let tier = try await BenchmarkPostgres.freshDatabase()
        let origin = try await DemoOrigin.start()
        let shared = HTTPClient(eventLoopGroupProvider: .singleton, configuration: AsyncHTTPClientTransport.recommendedConfiguration)
        func client(_ name: String) async throws -> CachingClient {
            var configuration = CachingClientConfiguration()
            configuration.transport = AsyncHTTPClientTransport(client: shared)
            configuration.store.memoryCapacity = 512 << 20
            configuration.sharedTier = tier
            configuration.sharedTier?.instanceName = name
            configuration.sharedTier?.maximumPendingWrites = 100_000  // the fill waits for every write; none may be dropped
            configuration.willCache = { request, _ in
                request.path?.contains("?unstored=") == true ? .store(.notAllowed) : .store(.allowed)
            }
            return try await CachingClient(configuration: configuration)
        }
        return Fleet(
            origin: origin, shared: shared, tier: tier, writer: try await client("writer"),
            readers: [try await client("reader-1"), try await client("reader-2")],
            database: try await BenchmarkPostgres.connect(to: tier))
    }

    /// `/large/10?{name}={index}`: 10 KiB, fresh for a minute, a key of its own.
    func url(_ name: String, _ index: Int) -> String { origin.baseURL + "/large/10?\(name)=\(index)" }

    /// Has the writer fetch `urls` (misses: each stored in its tiers and, in the background,
    /// the shared one) and waits until the tier holds `expected` entries in all.
    func fill(_ urls: [String], expected: Int) async throws {
        for url in urls { _ = try await writer.data(from: url) }
        let deadline = ContinuousClock.now + .seconds(120)
        while try await BenchmarkPostgres.entryCount(on: database) < expected {
            guard ContinuousClock.now < deadline else { throw FillTimedOut(expected: expected) }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// The shared tier did not hold what was written within two minutes.
    struct FillTimedOut: Error, CustomStringConvertible {
        let expected: Int
        var description: String { "the shared tier did not reach \(expected) entries within 120 s" }
    }

    /// A plain AsyncHTTPClient GET of `url` (the origin's 10 KiB), the shared hit's peer.
    func originRoundTrip(_ url: String) async throws {
        let response = try await shared.execute(HTTPClientRequest(url: url), timeout: .seconds(5))
        _ = try await response.body.collect(upTo: 1 << 20)
    }

    func stop() async throws {
        for client in [writer] + readers { try await client.shutdown() }
        try await database.close()
        try await shared.shutdown()
        try await origin.stop()
        try await BenchmarkPostgres.drop(tier)  // on a server of one's own, the benchmark leaves nothing behind
    }
}
