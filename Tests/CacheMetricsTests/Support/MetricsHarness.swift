import AsyncHTTPClient
import CacheMetrics
@testable import CacheScopeApp
import CacheStore
import CachingClient
import DemoOrigin
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import Synchronization
import Testing

/// The demo origin on loopback, a caching client in front of it whose metrics go to the
/// endpoint's `CacheMetricsExposition`, and the `/metrics` endpoint serving it on a loopback port:
/// what `--metrics` runs, scraped over a real socket.
///
/// Origin and client share a clock the test moves by hand, so going stale needs no sleeping.
/// A class so that a test that ends early still shuts its client down (AsyncHTTPClient traps
/// when a client is released while running).
final class MetricsHarness: Sendable {
    let origin: DemoOrigin
    let client: CachingClient
    let clock: SimulatedClock
    let endpoint: MetricsEndpoint
    let metrics: CacheMetrics
    private let stopped = Mutex(false)

    private init(origin: DemoOrigin, client: CachingClient, clock: SimulatedClock, endpoint: MetricsEndpoint, metrics: CacheMetrics) {
        (self.origin, self.client, self.clock, self.endpoint, self.metrics) = (origin, client, clock, endpoint, metrics)
    }

    /// Starts everything; `memoryCapacity` small enough makes the memory tier evict;
    /// `realTime` puts origin and client on the system clock (for latencies).
    static func start(memoryCapacity: Int = 32 << 20, realTime: Bool = false) async throws -> MetricsHarness {
        let clock = SimulatedClock(start: Date())
        let now: @Sendable () -> Date
        if realTime { now = { Date() } } else { now = { clock.now } }
        let origin = try await DemoOrigin.start(now: now)
        var configuration = CachingClientConfiguration()
        // An entry may take half the memory tier, so a few /large/N bodies make it evict.
        configuration.store = StoreConfiguration(memoryCapacity: memoryCapacity, maximumEntryShare: 0.5)
        configuration.now = now
        configuration.statsInterval = .milliseconds(20)
        configuration.requestTimeout = .seconds(5)
        let client = try await CachingClient(configuration: configuration)
        let endpoint = try await MetricsEndpoint.start(at: try MetricsEndpoint.Address(ListenAddress(host: "127.0.0.1", port: 0), allowRemote: false))
        let metrics = CacheMetrics(
            events: client.events, storeStats: client.store.stats(), factory: endpoint.exposition)
        return MetricsHarness(origin: origin, client: client, clock: clock, endpoint: endpoint, metrics: metrics)
    }

    deinit {
        guard !stopped.withLock({ $0 }) else { return }
        let (client, origin, endpoint) = (client, origin, endpoint)
        Task {
            try? await client.shutdown()
            try? await origin.stop()
            await endpoint.stop()
        }
    }

    /// GETs `path` of the origin through the caching client.
    @discardableResult
    func get(_ path: String) async throws -> ClientResponse {
        let request = try #require(CachingClient.request(url: origin.baseURL + path), "not a URL: \(path)")
        return try await client.data(for: request)
    }

    /// Moves origin's and client's clock forward (unless they run in real time).
    func advance(seconds: Double) {
        clock.set(clock.now.addingTimeInterval(seconds))
    }

    /// Scrapes until `ready` holds (the metrics record events within 20 ms of their
    /// publication) or 5 s pass; the last scrape either way.
    func scrape(until ready: (PrometheusText) -> Bool) async throws -> PrometheusText {
        var page = try await scrape()
        for _ in 0..<250 where !ready(page) {
            try await Task.sleep(for: .milliseconds(20))
            page = try await scrape()
        }
        return page
    }

    /// One scrape of `/metrics`, which must answer 200 in the text format.
    func scrape() async throws -> PrometheusText {
        let answer = try await Self.request(endpoint.url)
        try #require(answer.status == 200, "GET /metrics answered \(answer.status): \(answer.body)")
        try #require(answer.contentType == "text/plain; version=0.0.4; charset=utf-8")
        return try PrometheusText(parsing: answer.body)
    }

    /// An HTTP request over a real socket.
    static func request(
        _ url: String, method: HTTPMethod = .GET, timeout: TimeAmount = .seconds(5)
    ) async throws -> (status: Int, contentType: String?, allow: String?, body: String) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        let response = try await HTTPClient.shared.execute(request, timeout: timeout)
        let body = try await response.body.collect(upTo: 1 << 20)
        return (
            Int(response.status.code), response.headers.first(name: "Content-Type"), response.headers.first(name: "Allow"),
            String(buffer: body)
        )
    }

    /// Stops the metrics (after the events published so far), the client, origin and endpoint.
    func stop() async throws {
        stopped.withLock { $0 = true }
        try await client.shutdown()
        await metrics.stop()
        try await origin.stop()
        await endpoint.stop()
    }
}
