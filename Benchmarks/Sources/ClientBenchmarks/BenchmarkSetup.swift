import AsyncHTTPClient
import CachingClient
import DemoOrigin
import HTTPTypes

/// What every mode measures against: the demo origin, one `HTTPClient` shared by the caching
/// client and its peers, the caching client with a dashboard subscribed, and the two requests
/// (a fresh hit and a revalidation), each already sent once.
struct BenchmarkSetup: Sendable {
    let origin: DemoOrigin
    /// One HTTPClient (the transport's recommended configuration) serves both the caching
    /// client and its peer, the plain GET: the two then share one connection pool and the
    /// same event loops, so the comparison measures the caching layer and not where NIO
    /// placed each connection (which moved single runs' ratios by ±20%).
    let shared: HTTPClient
    let client: CachingClient
    /// `/max-age/3600`, stored: every later request is a fresh hit.
    let hitRequest: HTTPRequest
    /// `/no-cache`, stored with an ETag: every later request is a 304 revalidation.
    let revalidateRequest: HTTPRequest
    /// A watcher subscribed as the dashboard is (woken by the events it is sent), so events are really
    /// published and delivered while the client is measured.
    private let drain: Task<Int, Never>

    static func start() async throws -> BenchmarkSetup {
        let origin = try await DemoOrigin.start()
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
        let hitRequest = CachingClient.request(url: origin.baseURL + "/max-age/3600")!
        let revalidateRequest = CachingClient.request(url: origin.baseURL + "/no-cache")!
        _ = try await client.data(for: hitRequest)
        _ = try await client.data(for: revalidateRequest)
        return BenchmarkSetup(
            origin: origin, shared: shared, client: client, hitRequest: hitRequest, revalidateRequest: revalidateRequest, drain: drain)
    }

    /// The conditional GET the client sends to revalidate `/no-cache`, for the bare transport.
    func conditionalRequest() async throws -> HTTPRequest {
        var fields = HTTPFields()
        fields[.ifNoneMatch] = try await client.data(for: revalidateRequest).response.headerFields[.eTag]
        return HTTPRequest(method: .get, scheme: "http", authority: revalidateRequest.authority, path: "/no-cache", headerFields: fields)
    }

    /// A plain AsyncHTTPClient GET of `path` (a 200 with its body), the 304's peer.
    func plainGet(_ path: String = "/no-cache") async throws {
        let response = try await shared.execute(HTTPClientRequest(url: origin.baseURL + path), timeout: .seconds(5))
        _ = try await response.body.collect(upTo: 1 << 24)
    }

    func stop() async throws {
        drain.cancel()
        try await client.shutdown()
        try await shared.shutdown()
        try await origin.stop()
    }
}
