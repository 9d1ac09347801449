import CacheStore
import CachingClient
@testable import CachingProxy
import DemoOrigin
import Foundation
import HTTPCaching
import Synchronization

/// A wall clock tests move forward by hand, so expiry needs no sleeping. It starts on a whole
/// second, as the origin's `Date` is written, so ages and TTLs come out whole.
final class TestClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: Double) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// The real demo origin on a loopback port, a shared-mode caching client in front of it, and a
/// caching proxy on another loopback port in front of that.
///
/// A class so that a test which ends early still shuts everything down (AsyncHTTPClient traps
/// when a client is released while running).
final class ProxyHarness: Sendable {
    let origin: DemoOrigin
    let client: CachingClient
    let proxy: CachingProxy
    let clock: TestClock
    /// The proxy's access log.
    let log: RecordSink
    private let finished = Mutex(false)

    private init(origin: DemoOrigin, client: CachingClient, proxy: CachingProxy, clock: TestClock, log: RecordSink) {
        self.origin = origin
        self.client = client
        self.proxy = proxy
        self.clock = clock
        self.log = log
    }

    deinit {
        guard !finished.withLock({ $0 }) else { return }
        let (proxy, client, origin) = (self.proxy, self.client, self.origin)
        Task {
            await proxy.stop()
            try? await client.shutdown()
            try? await origin.stop()
        }
    }

    static func start(
        requestTimeout: Duration = .seconds(5), configure: (inout CachingProxyConfiguration) -> Void = { _ in }
    ) async throws -> ProxyHarness {
        let clock = TestClock()
        let origin = try await DemoOrigin.start(now: { clock.now })
        var clientConfiguration = CachingClientConfiguration.proxy(store: StoreConfiguration())
        clientConfiguration.requestTimeout = requestTimeout
        clientConfiguration.now = { clock.now }
        let client = try await CachingClient(configuration: clientConfiguration)
        var configuration = CachingProxyConfiguration(origin: try ProxyOrigin(parsing: origin.baseURL))
        configure(&configuration)
        let log = RecordSink()
        let proxy = try await CachingProxy.start(configuration, client: client, accessLog: { log.append($0) })
        return ProxyHarness(origin: origin, client: client, proxy: proxy, clock: clock, log: log)
    }

    /// Runs `body`, then stops the proxy, the client and the origin.
    func run(_ body: (ProxyHarness) async throws -> Void) async throws {
        do {
            try await body(self)
        } catch {
            await stop()
            throw error
        }
        await stop()
    }

    func stop() async {
        guard !finished.withLock({ flag in defer { flag = true }; return flag }) else { return }
        await proxy.stop()
        try? await client.shutdown()
        try? await origin.stop()
    }

    /// `GET path` (or another method) over a new connection; returns the one response.
    func request(
        _ path: String, method: String = "GET", headers: [String] = [], body: String? = nil
    ) async throws -> RawResponse {
        var lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1:\(proxy.port)", "Connection: close"] + headers
        if let body { lines.append("Content-Length: \(body.utf8.count)") }
        let text = lines.joined(separator: "\r\n") + "\r\n\r\n" + (body ?? "")
        let exchange = try await RawHTTP.send(text, port: proxy.port, heads: method == "HEAD" ? [0] : [])
        guard let response = exchange.responses.first else { throw RawHTTPError.malformed("no response to \(method) \(path)") }
        return response
    }

    /// The `Cache-Status` member this proxy added (the last one).
    static func cacheStatus(_ response: RawResponse) -> String {
        response.values("Cache-Status").last ?? "(none)"
    }
}

/// Collects the proxy's access-log records.
final class RecordSink: Sendable {
    private let state = Mutex<[ProxyAccessRecord]>([])

    func append(_ record: ProxyAccessRecord) {
        state.withLock { $0.append(record) }
    }

    var records: [ProxyAccessRecord] { state.withLock { $0 } }

    /// The records once there are at least `count` (or whatever there is after 10 s). The proxy
    /// logs a request after its response's last byte is written, so a client that has read
    /// the response can be ahead of the log.
    func records(count: Int) async -> [ProxyAccessRecord] {
        let deadline = ContinuousClock.now + .seconds(10)
        while records.count < count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return records
    }
}

extension ProxyHarness {
    /// A client with `configuration` and a proxy in front of the origin at `baseURL`; `body`
    /// runs with the proxy, then both stop (also when `body` throws), and `stopOrigin` runs.
    static func inFront(
        of baseURL: String, configuration: CachingClientConfiguration, stopOrigin: () async -> Void,
        _ body: (CachingProxy) async throws -> Void
    ) async throws {
        let client: CachingClient
        let proxy: CachingProxy
        do {
            client = try await CachingClient(configuration: configuration)
        } catch {
            await stopOrigin()
            throw error
        }
        do {
            proxy = try await CachingProxy.start(CachingProxyConfiguration(origin: try ProxyOrigin(parsing: baseURL)), client: client)
        } catch {
            try? await client.shutdown()
            await stopOrigin()
            throw error
        }
        do {
            try await body(proxy)
        } catch {
            await proxy.stop()
            try? await client.shutdown()
            await stopOrigin()
            throw error
        }
        await proxy.stop()
        try? await client.shutdown()
        await stopOrigin()
    }
}
