import AsyncHTTPClient
import CachingClient
import DemoOrigin
import Testing
import HTTPCaching
import NIOCore
import NIOHTTP1
import HTTPTypes

@Suite("AsyncHTTPClient transport on the app's own HTTPClient", .timeLimit(.minutes(2)))
struct SharedHTTPClientTests {
    @Test("the cache works over an HTTPClient the app shares, and shutting the cache down leaves that client running")
    func sharedClient() async throws {
        let origin = try await DemoOrigin.start()
        let shared = HTTPClient(eventLoopGroupProvider: .singleton, configuration: AsyncHTTPClientTransport.recommendedConfiguration)
        var configuration = CachingClientConfiguration()
        configuration.transport = AsyncHTTPClientTransport(client: shared)
        let client = try await CachingClient(configuration: configuration)
        let url = origin.baseURL + "/max-age/60"
        #expect(try await client.data(from: url).outcome == .miss)
        #expect(try await client.data(from: url).outcome == .hit)
        try await client.shutdown()

        // The app's client still works after the cache has gone.
        let response = try await shared.execute(HTTPClientRequest(url: url), timeout: .seconds(5))
        #expect(response.status.code == 200)
        _ = try await response.body.collect(upTo: 1 << 20)
        #expect(origin.requestCount(path: "/max-age/60") == 2)
        try await shared.shutdown()
        try await origin.stop()
    }

    @Test("the recommended configuration leaves redirects to the cache: a 301 comes back as it is")
    func redirectsNotFollowed() async throws {
        let origin = try await DemoOrigin.start()
        let transport = AsyncHTTPClientTransport()
        let response = try await transport.send(
            CachingClient.request(url: origin.baseURL + "/redirect/301/60")!, body: nil, timeout: .seconds(5))
        #expect(response.response.status.code == 301)
        #expect(response.response.headerFields[.location] != nil)
        try await transport.shutdown()
        try await origin.stop()
    }
}

@Suite("AsyncHTTPClient transport configuration", .timeLimit(.minutes(2)))
struct TransportConfigurationTests {
    @Test("with no tracer bootstrapped, the recommended configuration leaves tracing off instead of building no-op spans")
    func noOpTracerDropped() {
        #expect(AsyncHTTPClientTransport.recommendedConfiguration.tracing.tracer == nil)
    }
}
