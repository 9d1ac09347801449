import AsyncHTTPClient
@testable import CacheScopeApp
import DemoOrigin
import NIOCore
import NIOHTTP1
import Prometheus
import Testing

/// The `/metrics` server on its own: what it answers, which addresses it refuses, and what a
/// port in use looks like.
@Suite("The /metrics endpoint", .timeLimit(.minutes(1)))
struct MetricsEndpointTests {
    private static func loopback(port: Int = 0) throws -> MetricsEndpoint.Address {
        try MetricsEndpoint.Address(ListenAddress(host: "127.0.0.1", port: port), allowRemote: false)
    }

    @Test("GET and HEAD of /metrics answer 200 in the text format; a query is ignored")
    func metricsPath() async throws {
        let endpoint = try await MetricsEndpoint.start(at: try Self.loopback())
        let counter = endpoint.exposition.registry.makeCounter(descriptor: MetricNameDescriptor(metricName: "probe", unitName: "total", helpText: "a probe"))
        counter.increment(by: Int64(3))
        let get = try await MetricsHarness.request(endpoint.url + "?format=text")
        #expect(get.status == 200)
        #expect(get.contentType == "text/plain; version=0.0.4; charset=utf-8")
        #expect(try PrometheusText(parsing: get.body).value("probe_total") == 3)
        let head = try await MetricsHarness.request(endpoint.url, method: .HEAD)
        #expect(head.status == 200 && head.body.isEmpty)
        await endpoint.stop()
    }

    @Test("any other path is 404", arguments: ["/", "/metrics/", "/metrics/extra", "/favicon.ico", "/METRICS"])
    func otherPaths(path: String) async throws {
        let endpoint = try await MetricsEndpoint.start(at: try Self.loopback())
        let answer = try await MetricsHarness.request("http://\(endpoint.address)\(path)")
        #expect(answer.status == 404)
        #expect(answer.body == "not found: the metrics are at /metrics\n")
        await endpoint.stop()
    }

    @Test("the path of a request target, without its query, in origin form and in absolute form (which a server must take, RFC 9112 §3.2.2)", arguments: [
        ("/metrics", "/metrics"), ("/metrics?x=1", "/metrics"), ("http://127.0.0.1:9464/metrics", "/metrics"),
        ("HTTP://localhost/metrics?y", "/metrics"), ("http://127.0.0.1:9464", "/"), ("/a://b", "/a://b"), ("", ""),
    ])
    func targetPath(target: String, path: String) {
        #expect(MetricsHTTPHandler.path(of: target) == path)
    }

    @Test("another method on /metrics is 405, with Allow", arguments: [HTTPMethod.POST, .PUT, .DELETE, .PATCH])
    func otherMethods(method: HTTPMethod) async throws {
        let endpoint = try await MetricsEndpoint.start(at: try Self.loopback())
        let answer = try await MetricsHarness.request(endpoint.url, method: method)
        #expect(answer.status == 405)
        #expect(answer.allow == "GET, HEAD")
        #expect(answer.body == "\(method.rawValue) is not allowed on /metrics: use GET\n")
        await endpoint.stop()
    }

    @Test("a non-loopback address is refused unless remote scrapers are allowed", arguments: ["0.0.0.0", "192.0.2.7", "::", "example.com"])
    func remoteRefused(host: String) throws {
        let address = ListenAddress(host: host, port: 9464)
        #expect(throws: MetricsEndpointError.remoteNotAllowed(host: host)) {
            try MetricsEndpoint.Address(address, allowRemote: false)
        }
        #expect(MetricsEndpointError.remoteNotAllowed(host: host).description.contains("add --allow-remote"))
        #expect(try MetricsEndpoint.Address(address, allowRemote: true).listen == address)
    }

    @Test("loopback addresses need no permission", arguments: ["127.0.0.1", "127.8.9.10", "localhost", "::1"])
    func loopbackAllowed(host: String) throws {
        #expect(try MetricsEndpoint.Address(ListenAddress(host: host, port: 0), allowRemote: false).listen.host == host)
    }

    @Test("a port in use fails the start, naming the address and what to do")
    func portInUse() async throws {
        let first = try await MetricsEndpoint.start(at: try Self.loopback())
        let taken = first.address
        await #expect(throws: MetricsEndpointError.portInUse(taken)) {
            _ = try await MetricsEndpoint.start(at: try Self.loopback(port: taken.port))
        }
        #expect(MetricsEndpointError.portInUse(taken).description
            == "cannot serve metrics on 127.0.0.1:\(taken.port): the port is in use; choose another, or port 0 for any free one")
        // The first one still serves.
        #expect(try await MetricsHarness.request(first.url).status == 200)
        await first.stop()
    }

    @Test("an address that is not this machine's fails the start with the system's reason")
    func notThisMachine() async throws {
        let address = ListenAddress(host: "192.0.2.7", port: 0)  // TEST-NET-1: never a local address
        await #expect {
            _ = try await MetricsEndpoint.start(at: try MetricsEndpoint.Address(address, allowRemote: true))
        } throws: { error in
            guard case .bindFailed(let failed, _) = error as? MetricsEndpointError else { return false }
            return failed == address && "\(error)".hasPrefix("cannot serve metrics on 192.0.2.7:0: ")
        }
    }

    @Test("after stop, connecting is refused")
    func stopped() async throws {
        let endpoint = try await MetricsEndpoint.start(at: try Self.loopback())
        await endpoint.stop()
        await #expect(throws: (any Error).self) { _ = try await MetricsHarness.request(endpoint.url, timeout: .milliseconds(500)) }
    }
}
