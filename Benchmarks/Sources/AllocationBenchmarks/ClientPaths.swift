import AsyncHTTPClient
import BenchmarkSupport
import CacheEvents
import CacheMetrics
import CachingClient
import HTTPTypes

/// The client's paths, set up as ClientBenchmarks sets them up (one `HTTPClient` with the
/// transport's recommended configuration, the client on it with a dashboard subscribed and
/// drained), against the demo origin in its own process.
struct ClientPaths {
    let watched: WatchedClient
    let origin: String
    var client: CachingClient { watched.client }
    var hitRequest: HTTPRequest { watched.hitRequest }
    var revalidateRequest: HTTPRequest { watched.revalidateRequest }

    static func start(origin: String) async throws -> ClientPaths {
        ClientPaths(watched: try await WatchedClient.start(origin: origin), origin: origin)
    }

    /// Real events of the three kinds of request (`rounds` of each), as a recorder received them.
    func sampleEvents(rounds: Int = 20) async throws -> [CacheEvent] {
        let recorder = await client.subscribe(.recorder, snapshot: false)
        for round in 0..<rounds {
            _ = try await client.data(for: hitRequest)
            _ = try await client.data(for: revalidateRequest)
            _ = try await client.data(from: origin + "/max-age/\(900_000 + round)")
        }
        defer { recorder.finish() }
        return recorder.take()
    }

    /// Fresh hit, 304 round trip, the transport's own conditional GET, miss + store, and the
    /// fresh hit again with metrics switched on (`CacheMetrics` on swift-metrics' default,
    /// no-op backend: what the metrics' observer costs, not a backend's).
    func measure() async throws -> [AllocationCount] {
        let transport = AsyncHTTPClientTransport(client: watched.shared)
        let conditional = try await watched.conditionalRequest()
        let probe = try await transport.send(conditional, body: nil, timeout: .seconds(5))
        precondition(probe.response.status == .notModified, "the conditional GET got \(probe.response.status), not 304")

        let (client, hitRequest, revalidateRequest, origin) = (client, hitRequest, revalidateRequest, origin)
        return try await Task.detached {
            let hit = try await AllocationCounter.measureAsync(Figure.freshHit.name, operations: 1000) {
                for _ in 0..<1000 { _ = try await client.data(for: hitRequest) }
            }
            let revalidation = try await AllocationCounter.measureAsync(Figure.revalidation.name, operations: 1000) {
                for _ in 0..<1000 { _ = try await client.data(for: revalidateRequest) }
            }
            let transportAlone = try await AllocationCounter.measureAsync(Figure.transportRevalidation.name, operations: 1000) {
                for _ in 0..<1000 { _ = try await transport.send(conditional, body: nil, timeout: .seconds(5)) }
            }
            // Each miss asks for a URL not asked before: a 200 from the origin, stored.
            var next = 100_000
            let miss = try await AllocationCounter.measureAsync(Figure.missAndStore.name, operations: 1000) {
                for _ in 0..<1000 {
                    _ = try await client.data(from: origin + "/max-age/\(next)")
                    next += 1
                }
            }
            let metrics = CacheMetrics(events: client.events)
            let hitWithMetrics = try await AllocationCounter.measureAsync(Figure.freshHitWithMetrics.name, operations: 1000) {
                for _ in 0..<1000 { _ = try await client.data(for: hitRequest) }
            }
            await metrics.stop()
            return [hit, revalidation, transportAlone, miss, hitWithMetrics]
        }.value
    }

    func stop() async throws {
        try await watched.stop()
    }
}
