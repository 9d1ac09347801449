import AsyncHTTPClient
import BenchmarkSupport
import CachingClient
import Foundation
import Logging
import PostgresNIO

/// `--misses`: where a miss's time goes, for looking into it — 300 alternating misses through
/// the writer (shared-tier lookup, then the origin; not stored), through a client of the same
/// configuration without a shared tier, and plain AsyncHTTPClient GETs of fresh URLs.
enum MissBreakdown {
    static func run() async throws {
        let fleet = try await Fleet.start()
        var configuration = CachingClientConfiguration()
        configuration.transport = AsyncHTTPClientTransport(client: fleet.shared)
        configuration.willCache = { _, _ in .store(.notAllowed) }
        let withoutTier = try await CachingClient(configuration: configuration)
        var tier: [Double] = [], plain: [Double] = [], bare: [Double] = []
        for index in 0..<300 {
            // The writer stores nothing under `?unstored=` (its willCache); the other stores nothing at all.
            for (kind, client) in [("unstored", fleet.writer), ("plain", withoutTier)] {
                let url = fleet.url(kind, index)
                let start = ContinuousClock.now
                _ = try await client.data(from: url)
                let seconds = (ContinuousClock.now - start).seconds
                if kind == "unstored" { tier.append(seconds) } else { plain.append(seconds) }
            }
            let start = ContinuousClock.now
            try await fleet.originRoundTrip(fleet.url("bare", index))
            bare.append((ContinuousClock.now - start).seconds)
        }
        func median(_ values: [Double]) -> String { String(format: "%.3f ms", BenchmarkSupport.median(values) * 1e3) }
        print("miss with the shared tier \(median(tier)), without \(median(plain)), plain AsyncHTTPClient GET \(median(bare))")
        // PostgresNIO's own round trip: `SELECT 1` on one connection.
        var selects: [Double] = []
        for _ in 0..<300 {
            let start = ContinuousClock.now
            for try await _ in try await fleet.database.query("SELECT 1", logger: Logger(label: "cachescope.bench")) {}
            selects.append((ContinuousClock.now - start).seconds)
        }
        print("SELECT 1 on one PostgresConnection \(median(selects))")
        try await withoutTier.shutdown()
        try await fleet.stop()
    }
}
