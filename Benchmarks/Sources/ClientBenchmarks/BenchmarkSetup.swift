import AsyncHTTPClient
import BenchmarkSupport
import CachingClient
import DemoOrigin
import HTTPTypes

/// What every mode measures against: the demo origin and the caching client on it as
/// ``WatchedClient`` sets it up (one `HTTPClient` shared with the peers, a dashboard subscribed,
/// a fresh hit and a revalidation each already sent once).
struct BenchmarkSetup: Sendable {
    let origin: DemoOrigin
    let watched: WatchedClient

    var shared: HTTPClient { watched.shared }
    var client: CachingClient { watched.client }
    var hitRequest: HTTPRequest { watched.hitRequest }
    var revalidateRequest: HTTPRequest { watched.revalidateRequest }

    static func start() async throws -> BenchmarkSetup {
        let origin = try await DemoOrigin.start()
        return BenchmarkSetup(origin: origin, watched: try await WatchedClient.start(origin: origin.baseURL))
    }

    /// The conditional GET the client sends to revalidate `/no-cache`, for the bare transport.
    func conditionalRequest() async throws -> HTTPRequest {
        try await watched.conditionalRequest()
    }

    /// A plain AsyncHTTPClient GET of `path` (a 200 with its body), the 304's peer.
    func plainGet(_ path: String = "/no-cache") async throws {
        let response = try await shared.execute(HTTPClientRequest(url: origin.baseURL + path), timeout: .seconds(5))
        _ = try await response.body.collect(upTo: 1 << 24)
    }

    func stop() async throws {
        try await watched.stop()
        try await origin.stop()
    }
}
