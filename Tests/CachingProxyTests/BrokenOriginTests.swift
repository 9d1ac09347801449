import CacheStore
import CachingClient
@testable import CachingProxy
import Foundation
import HTTPTypes
import NIOCore
import Testing

/// Origins written byte by byte: those that break HTTP in ways the HTTP libraries let through
/// (each answer a 502 that says what was wrong, nothing stored, the proxy up), slow ones
/// (dripped, stalled, many at once) and a body still streaming when the proxy stops.
@Suite("Proxy: raw origins — broken HTTP, slow bodies, many connections", .timeLimit(.minutes(2)))
struct BrokenOriginTests {
    /// A raw origin answering `answer`, a proxy in front (the proxy's own client
    /// configuration); `body` runs with the proxy's port, then both stop.
    private func withProxy(
        answer: String?, delay: TimeAmount = .zero, drip: TimeAmount? = nil, drips: Int = .max, requestTimeout: Duration = .seconds(30),
        store: StoreConfiguration = StoreConfiguration(), _ body: (Int, RawOrigin, CachingProxy) async throws -> Void
    ) async throws {
        let origin = try await RawOrigin.start(delay: delay, drip: drip, drips: drips, answer: answer)
        var configuration = CachingClientConfiguration.proxy(store: store)
        configuration.requestTimeout = requestTimeout
        try await ProxyHarness.inFront(of: origin.baseURL, configuration: configuration, stopOrigin: origin.stop) { proxy in
            try await body(proxy.port, origin, proxy)
        }
    }

    private func get(_ path: String, port: Int) async throws -> RawResponse {
        try #require(try await RawHTTP.send("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port).responses.first)
    }

    @Test("answers no HTTP/1.1 client may take as they are: 502 naming what is wrong, never stored", arguments: [
        ("HTTP/1.1 999 Odd\r\nCache-Control: max-age=60\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok",
         "the origin answered with status 999, which is not an HTTP status (100 to 599)"),
        ("HTTP/1.1 600 Odd\r\nCache-Control: max-age=60\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok",
         "the origin answered with status 600, which is not an HTTP status (100 to 599)"),
        ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
         "the origin switched protocols (101) although the request asked for no upgrade"),
        ("HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nTransfer-Encoding: gzip\r\n\r\nnot really gzip",
         "the origin's response has the transfer coding gzip, which cannot be decoded"),
    ])
    func refused(answer: String, message: String) async throws {
        try await withProxy(answer: answer) { port, _, _ in
            for _ in 0..<2 {
                let response = try await get("/odd", port: port)
                #expect(response.status == 502)
                #expect(response.text.contains(message), "\(response.text)")
                #expect(ProxyHarness.cacheStatus(response) == "cachescope;fwd=miss;detail=origin-error", "\(ProxyHarness.cacheStatus(response))")
            }
        }
    }

    @Test("answers without a body (to a HEAD, a 304) may name the GET's transfer codings: taken, not refused", arguments: [
        ("HEAD", "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n", 200),
        ("GET", "HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n", 304),
    ])
    func bodilessAnswersWithCodings(method: String, answer: String, status: Int) async throws {
        let origin = try await RawOrigin.start(answer: answer)
        let transport = AsyncHTTPClientTransport()
        let request = HTTPRequest(method: HTTPRequest.Method(method) ?? .get, scheme: "http", authority: "127.0.0.1:\(origin.port)", path: "/coded")
        var outcome = ""
        do {
            outcome = "\(try await transport.send(request, body: nil, timeout: .seconds(5)).response.status.code)"
        } catch {
            outcome = "\(error)"
        }
        try? await transport.shutdown()
        await origin.stop()
        #expect(outcome == "\(status)")
    }

    @Test("an origin that takes the request and closes without answering: 502, an origin error, not 'cannot connect'")
    func closedWithoutAnswer() async throws {
        try await withProxy(answer: nil) { port, _, _ in
            let response = try await get("/gone", port: port)
            #expect(response.status == 502)
            #expect(response.text.contains("the origin closed the connection before its response ended"), "\(response.text)")
            #expect(!response.text.contains("cannot connect"))
            #expect(ProxyHarness.cacheStatus(response) == "cachescope;fwd=miss;detail=origin-error")
        }
    }

    @Test("a body the store could keep that the origin drips, or stops sending: 504 once the request timeout has run out",
          arguments: [TimeAmount.milliseconds(100), .hours(1)])  // a byte every 100 ms; one byte, then silence
    func drippedOrStalledBody(drip: TimeAmount) async throws {
        let head = "HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nContent-Length: 1000\r\n\r\nx"
        try await withProxy(answer: head, drip: drip, requestTimeout: .seconds(1)) { port, _, _ in
            let started = ContinuousClock.now
            let response = try await get("/drip", port: port)
            #expect(response.status == 504, "\(response.status) \(response.text)")
            #expect(ProxyHarness.cacheStatus(response) == "cachescope;fwd=miss;detail=origin-timeout")
            #expect(response.text.contains("did not end within 1.0 seconds (its body was still arriving)"), "not 'no response': \(response.text)")
            #expect(ContinuousClock.now - started < .seconds(5))
        }
    }

    /// Each body the store may keep is collected whole before it is sent: without a bound on
    /// them together, many concurrent misses of large bodies took hundreds of megabytes.
    @Test("bodies being collected to store are bounded together: past the memory tier's capacity another is streamed through, not collected")
    func collectingIsBounded() async throws {
        // Memory only, 1 MiB, an entry up to 80 % of it: one 600 kB body is collected, a second at
        // the same time would take the two past 1 MiB. The origin drips them and cuts them off.
        let head = "HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nContent-Length: 600000\r\n\r\nx"
        let store = StoreConfiguration(memoryCapacity: 1 << 20, maximumEntryShare: 0.8)
        try await withProxy(answer: head, drip: .milliseconds(100), drips: 10, store: store) { port, _, _ in
            func send(_ path: String) async throws -> String {
                let exchange = try await RawHTTP.send(
                    "GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port, waitForClose: true)
                return String(decoding: exchange.received.prefix(12), as: UTF8.self)
            }
            async let first = send("/big/1")
            try await Task.sleep(for: .milliseconds(200))  // the first is being collected by now
            let second = try await send("/big/2")
            // Collected, then cut off by the origin: a 502. Streamed through: its head went at once.
            #expect(try await first == "HTTP/1.1 502")
            #expect(second == "HTTP/1.1 200", "the second body was not collected beside the first")
        }
    }

    @Test("stop() during a body too large to store lets it finish: every byte, then the connection closes")
    func stopDuringStreamedBody() async throws {
        // 2 MiB at once (past the 1.6 MiB the default store keeps: streamed), then ten bytes
        // 100 ms apart: the stop comes while the body is still streaming.
        let size = (2 << 20) + 10
        let answer = "HTTP/1.1 200 OK\r\nContent-Length: \(size)\r\n\r\n" + String(repeating: "a", count: 2 << 20)
        try await withProxy(answer: answer, drip: .milliseconds(100), drips: 10) { port, _, proxy in
            let download = Task {
                try await RawHTTP.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n", port: port, waitForClose: true, timeout: .seconds(10))
            }
            var waited = 0
            while proxy.registry.requestsInFlight == 0, waited < 500 {
                try await Task.sleep(for: .milliseconds(10))  // bounded: until the request is under way
                waited += 1
            }
            try await Task.sleep(for: .milliseconds(300))
            await proxy.stop()
            let exchange = try await download.value
            let response = try #require(exchange.responses.first)
            #expect(response.status == 200)
            // Its head went out before the stop (keep-alive): the drain came during the body.
            #expect(response.value("Connection") == nil, "\(response.values("Connection"))")
            #expect(response.body.count == size, "\(response.body.count) of \(size) bytes")
            #expect(exchange.closed)
        }
    }

    @Test("more slow misses at once than AsyncHTTPClient's 8 connections: each gets its own, none waits for another")
    func manySlowMissesAtOnce() async throws {
        let answer = "HTTP/1.1 200 OK\r\nCache-Control: no-store\r\nContent-Length: 2\r\n\r\nok"
        try await withProxy(answer: answer, delay: .milliseconds(500)) { port, origin, _ in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<16 { group.addTask { try await get("/slow/\(index)", port: port).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 16))
            #expect(origin.mostConnectionsAtOnce > 8, "with 8 connections the rest waited for one to be free")
        }
    }
}
