import AsyncHTTPClient
import BenchmarkSupport
import CacheEvents
import CachingClient
import HTTPTypes

/// The client's paths, set up as ClientBenchmarks sets them up (one `HTTPClient` with the
/// transport's recommended configuration, the client on it with a dashboard subscribed and
/// drained), against the demo origin in its own process.
struct ClientPaths {
    let client: CachingClient
    let shared: HTTPClient
    let origin: String
    /// `/max-age/3600`, stored: every later request is a fresh hit.
    let hitRequest: HTTPRequest
    /// `/no-cache`, stored with an ETag: every later request is a 304 revalidation.
    let revalidateRequest: HTTPRequest
    private let drain: Task<Int, Never>

    static func start(origin: String) async throws -> ClientPaths {
        let shared = HTTPClient(eventLoopGroupProvider: .singleton, configuration: AsyncHTTPClientTransport.recommendedConfiguration)
        var configuration = CachingClientConfiguration()
        configuration.statsInterval = .seconds(3600)
        configuration.transport = AsyncHTTPClientTransport(client: shared)
        let client = try await CachingClient(configuration: configuration)
        let dashboard = await client.subscribe(.dashboard, snapshot: false).batches
        let drain = Task.detached {
            var delivered = 0
            for await batch in dashboard { delivered += batch.count }
            return delivered
        }
        let hitRequest = CachingClient.request(url: origin + "/max-age/3600")!
        let revalidateRequest = CachingClient.request(url: origin + "/no-cache")!
        _ = try await client.data(for: hitRequest)
        _ = try await client.data(for: revalidateRequest)
        return ClientPaths(
            client: client, shared: shared, origin: origin, hitRequest: hitRequest, revalidateRequest: revalidateRequest, drain: drain)
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

    /// Fresh hit, 304 round trip, the transport's own conditional GET, and miss + store.
    func measure() async throws -> [AllocationCount] {
        let transport = AsyncHTTPClientTransport(client: shared)
        var fields = HTTPFields()
        fields[.ifNoneMatch] = try await client.data(for: revalidateRequest).response.headerFields[.eTag]
        let conditional = HTTPRequest(method: .get, scheme: "http", authority: revalidateRequest.authority, path: "/no-cache", headerFields: fields)
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
            return [hit, revalidation, transportAlone, miss]
        }.value
    }

    func stop() async throws {
        drain.cancel()
        try await client.shutdown()
        try await shared.shutdown()
    }
}
