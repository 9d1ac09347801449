public import AsyncHTTPClient
public import CachingClient
public import HTTPTypes

/// The caching client as the client benchmarks measure it: on one `HTTPClient` with the
/// transport's recommended configuration (shared with its peers, the plain GET, so the
/// comparison measures the caching layer and not where NIO placed each connection), with a
/// dashboard subscribed and drained (so events are really published and delivered), and the
/// two requests measured — a fresh hit and a 304 revalidation — each already sent once.
public struct WatchedClient: Sendable {
    /// The `HTTPClient` under the caching client, for peers to share.
    public let shared: HTTPClient
    /// The caching client.
    public let client: CachingClient
    /// `/max-age/3600`, stored: every later request is a fresh hit.
    public let hitRequest: HTTPRequest
    /// `/no-cache`, stored with an ETag: every later request is a 304 revalidation.
    public let revalidateRequest: HTTPRequest
    private let drain: Task<Int, Never>

    /// Starts the client against the origin at `baseURL` (`http://127.0.0.1:PORT`).
    public static func start(origin baseURL: String) async throws -> WatchedClient {
        let shared = HTTPClient(eventLoopGroupProvider: .singleton, configuration: AsyncHTTPClientTransport.recommendedConfiguration)
        var configuration = CachingClientConfiguration()
        configuration.transport = AsyncHTTPClientTransport(client: shared)
        let client = try await CachingClient(configuration: configuration)
        let dashboard = await client.subscribe(.dashboard, snapshot: false).batches
        let drain = Task.detached {
            var delivered = 0
            for await batch in dashboard { delivered += batch.count }
            return delivered
        }
        guard let hitRequest = CachingClient.request(url: baseURL + "/max-age/3600"),
              let revalidateRequest = CachingClient.request(url: baseURL + "/no-cache")
        else { throw BadOrigin(url: baseURL) }
        _ = try await client.data(for: hitRequest)
        _ = try await client.data(for: revalidateRequest)
        return WatchedClient(shared: shared, client: client, hitRequest: hitRequest, revalidateRequest: revalidateRequest, drain: drain)
    }

    /// The conditional GET the client sends to revalidate `/no-cache`, for the bare transport.
    public func conditionalRequest() async throws -> HTTPRequest {
        var fields = HTTPFields()
        fields[.ifNoneMatch] = try await client.data(for: revalidateRequest).response.headerFields[.eTag]
        return HTTPRequest(method: .get, scheme: "http", authority: revalidateRequest.authority, path: "/no-cache", headerFields: fields)
    }

    /// Stops the watcher, the client and the shared `HTTPClient`.
    public func stop() async throws {
        drain.cancel()
        try await client.shutdown()
        try await shared.shutdown()
    }

    /// The origin's URL does not make requests.
    public struct BadOrigin: Error, CustomStringConvertible {
        /// What was given.
        public let url: String
        public var description: String { "not an origin URL to request from: \(url)" }
    }
}
