import CacheEvents
import CacheStore
import CachingClient
@testable import CachingProxy
import Foundation
import HTTPCaching
import Synchronization
import Testing

/// What the demo origin never sends, through a scripted origin: hop-by-hop response fields and
/// `proxy-revalidate`.
@Suite("Proxy: responses the demo origin never sends", .timeLimit(.minutes(2)))
struct ScriptedOriginTests {
    /// A scripted origin, a shared-mode client on `clock` and a proxy in front; `body` runs, then
    /// all three stop.
    private func withProxy(
        _ reply: @escaping @Sendable (String) -> ScriptedOrigin.Reply, _ body: (Int, ScriptedOrigin, TestClock) async throws -> Void
    ) async throws {
        let origin = try await ScriptedOrigin.start(reply)
        let clock = TestClock()
        var configuration = CachingClientConfiguration.proxy(store: StoreConfiguration())
        configuration.now = { clock.now }
        try await ProxyHarness.inFront(of: origin.baseURL, configuration: configuration, stopOrigin: origin.stop) { proxy in
            try await body(proxy.port, origin, clock)
        }
    }

    private func get(_ path: String, port: Int, headers: [String] = []) async throws -> RawResponse {
        let text = (["GET \(path) HTTP/1.1", "Host: x", "Connection: close"] + headers).joined(separator: "\r\n") + "\r\n\r\n"
        return try #require(try await RawHTTP.send(text, port: port).responses.first)
    }

    @Test("hop-by-hop fields of the response, and those its Connection names, do not reach the client")
    func responseHopByHop() async throws {
        let reply = ScriptedOrigin.Reply(headers: [
            ("Cache-Control", "max-age=60"), ("Connection", "X-Hop, keep-alive"), ("X-Hop", "1"), ("Keep-Alive", "timeout=5"),
            ("Proxy-Connection", "keep-alive"), ("Upgrade", "h2c"), ("X-Kept", "yes"),
        ])
        try await withProxy({ _ in reply }) { port, _, _ in
            for response in [try await get("/a", port: port), try await get("/a", port: port)] {  // forwarded, then from the store
                #expect(response.status == 200)
                for name in ["X-Hop", "Keep-Alive", "Proxy-Connection", "Upgrade"] {
                    #expect(response.value(name) == nil, "\(name) reached the client")
                }
                #expect(response.value("Connection") == "close")  // the proxy's own, for this request
                #expect(response.value("X-Kept") == "yes")
            }
        }
    }

    @Test("proxy-revalidate: a stale response is not served to a request that allows staleness (max-stale) in the shared cache")
    func proxyRevalidate() async throws {
        let reply = ScriptedOrigin.Reply(headers: [("Cache-Control", "max-age=10, proxy-revalidate"), ("ETag", "\"v1\"")])
        try await withProxy({ _ in reply }) { port, origin, clock in
            _ = try await get("/p", port: port)
            clock.advance(by: 30)
            let later = try await get("/p", port: port, headers: ["Cache-Control: max-stale=3600"])
            #expect(later.status == 200)
            #expect(ProxyHarness.cacheStatus(later).hasPrefix("cachescope;fwd=stale"), "\(ProxyHarness.cacheStatus(later))")
            #expect(origin.requestCount("/p") == 2)
        }
    }

    /// The origin's redirect to its own address sent clients around the proxy.
    @Test("a Location naming the origin reaches the client relative (back through the proxy); the stored response keeps the origin's")
    func locationNamingTheOrigin() async throws {
        let ownPort = OwnPort()
        try await withProxy({ _ in
            ScriptedOrigin.Reply(
                status: 301, headers: [("Cache-Control", "max-age=60"), ("Location", "http://127.0.0.1:\(ownPort.value.load(ordering: .relaxed))/new?x=1")],
                body: "")
        }) { port, origin, _ in
            ownPort.value.store(origin.port, ordering: .relaxed)
            for response in [try await get("/old", port: port), try await get("/old", port: port)] {  // forwarded, then from the store
                #expect(response.status == 301)
                #expect(response.value("Location") == "/new?x=1")
            }
            #expect(origin.requestCount("/old") == 1)
        }
    }

    private final class OwnPort: Sendable {
        let value = Atomic<Int>(0)
    }

    @Test("M-SEARCH reaches the origin as spelled (NIO calls it MSEARCH, which an origin refuses) and invalidates the stored GET")
    func mSearchForwardedAsSpelled() async throws {
        let reply = ScriptedOrigin.Reply(headers: [("Cache-Control", "max-age=600")])
        try await withProxy({ _ in reply }) { port, origin, _ in
            _ = try await get("/m", port: port)
            let search = try #require(try await RawHTTP.send(
                "M-SEARCH /m HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 3\r\n\r\nabc", port: port).responses.first)
            #expect(search.status == 200, "the origin refused the method as it reached it: \(search.text)")
            #expect(ProxyHarness.cacheStatus(search) == "cachescope;fwd=method;fwd-status=200", "\(ProxyHarness.cacheStatus(search))")
            let after = try await get("/m", port: port)
            #expect(ProxyHarness.cacheStatus(after).hasPrefix("cachescope;fwd=uri-miss"), "\(ProxyHarness.cacheStatus(after))")
            #expect(origin.requestCount("/m") == 3)
        }
    }

    @Test("a GET or HEAD with content is forwarded but neither stored nor answered from the cache: it cannot poison the entry a bodiless GET finds")
    func requestWithContentIsNotCached() async throws {
        let reply = ScriptedOrigin.Reply(headers: [("Cache-Control", "max-age=600")])
        try await withProxy({ _ in reply }) { port, origin, _ in
            for (method, path) in [("GET", "/fat"), ("HEAD", "/fathead")] {
                let fat = try #require(try await RawHTTP.send(
                    "\(method) \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 9\r\n\r\nevil=1234", port: port,
                    heads: method == "HEAD" ? [0] : []).responses.first)
                #expect(fat.status == 200)
                #expect(ProxyHarness.cacheStatus(fat) == "cachescope;fwd=request;fwd-status=200", "\(method): \(ProxyHarness.cacheStatus(fat))")
                let plain = try await get(path, port: port)
                #expect(ProxyHarness.cacheStatus(plain).hasPrefix("cachescope;fwd=uri-miss"), "\(method): \(ProxyHarness.cacheStatus(plain))")
                #expect(origin.requestCount(path) == 2)
            }
        }
    }

    @Test("If-Modified-Since against a response without Last-Modified is judged by its Date (RFC 9111 §4.3.2)")
    func ifModifiedSinceWithoutLastModified() async throws {
        let reply = ScriptedOrigin.Reply(headers: [("Cache-Control", "max-age=10000"), ("Date", HTTPDate.format(Date()))])
        try await withProxy({ _ in reply }) { port, origin, _ in
            _ = try await get("/d", port: port)
            let later = try await get("/d", port: port, headers: ["If-Modified-Since: \(HTTPDate.format(Date().addingTimeInterval(60)))"])
            #expect(later.status == 304)
            let earlier = try await get("/d", port: port, headers: ["If-Modified-Since: \(HTTPDate.format(Date().addingTimeInterval(-3000)))"])
            #expect(earlier.status == 200)
            #expect(origin.requestCount("/d") == 1)
            // A 200 just fetched was the origin's answer to that very conditional: it stands.
            let fetched = try await get("/d2", port: port, headers: ["If-Modified-Since: \(HTTPDate.format(Date().addingTimeInterval(60)))"])
            #expect(fetched.status == 200)
        }
    }

    @Test("a response the origin cuts short is a 502 saying so (the connection was made: not 'unreachable')")
    func cutShort() async throws {
        let reply = ScriptedOrigin.Reply(headers: [("Cache-Control", "max-age=60")], cutShort: true)
        try await withProxy({ _ in reply }) { port, _, _ in
            let response = try await get("/cut", port: port)
            #expect(response.status == 502)
            #expect(ProxyHarness.cacheStatus(response) == "cachescope;fwd=miss;detail=origin-error", "\(ProxyHarness.cacheStatus(response))")
            #expect(response.text.contains("the origin closed the connection before its response ended"), "\(response.text)")
        }
    }

    @Test("the origin's Cache-Status stays, the proxy's member comes after it")
    func cacheStatusAppended() async throws {
        let reply = ScriptedOrigin.Reply(headers: [("Cache-Control", "max-age=60"), ("Cache-Status", "origin-cache; hit")])
        try await withProxy({ _ in reply }) { port, _, _ in
            let response = try await get("/c", port: port)
            #expect(response.values("Cache-Status") == ["origin-cache; hit", "cachescope;fwd=uri-miss;fwd-status=200;stored;ttl=60"])
        }
    }

    /// Keeps the `stored` events it is shown.
    private final class StoredEvents: EventObserver {
        let seen = Mutex<[Stored]>([])
        func observe(_ event: CacheEvent) {
            if case .stored(let stored) = event.kind { seen.withLock { $0.append(stored) } }
        }
    }

    @Test("a stored response's event carries its age, the origin's Age included, so the Entries view's AGE and TTL bar are right")
    func storedAge() async throws {
        let reply = ScriptedOrigin.Reply(headers: [("Cache-Control", "max-age=300"), ("Age", "100")])
        let origin = try await ScriptedOrigin.start { _ in reply }
        let client = try await CachingClient(configuration: .proxy(store: StoreConfiguration()))
        let events = StoredEvents()
        let observation = client.events.observe(events, only: .stored)
        let request = try #require(CachingClient.request(url: origin.baseURL + "/aged"))
        _ = try await client.data(for: request)
        observation.cancel()
        try await client.shutdown()
        await origin.stop()
        let stored = try #require(events.seen.withLock { $0.first })
        let age = try #require(stored.age)
        let ttl = try #require(stored.ttl)
        #expect(age >= 100 && age < 110, "\(age)")
        #expect(abs(age + ttl - 300) < 0.001, "age \(age) + ttl \(ttl) is the lifetime")
    }
}

/// A revalidation whose 304 selects no stored response (another ETag): the response then
/// fetched in full was reported as a miss "not in cache" (a hunt of 27 November).
@Suite("Client: a 304 that selects nothing", .timeLimit(.minutes(2)))
struct MismatchedNotModifiedTests {
    private final class Calls: Sendable {
        let count = Atomic<Int>(0)
    }

    @Test("the full fetch after a 304 that selected no stored response is 'modified', saying why, with the new body")
    func refetchIsModified() async throws {
        let calls = Calls()
        let origin = try await ScriptedOrigin.start { _ in
            switch calls.count.add(1, ordering: .relaxed).newValue {
            case 1: return ScriptedOrigin.Reply(headers: [("Cache-Control", "max-age=1"), ("ETag", "\"a\"")], body: "old\n")
            case 2: return ScriptedOrigin.Reply(status: 304, headers: [("ETag", "\"b\"")], body: "")
            default: return ScriptedOrigin.Reply(headers: [("Cache-Control", "max-age=60"), ("ETag", "\"b\"")], body: "new\n")
            }
        }
        let clock = TestClock()
        var configuration = CachingClientConfiguration()
        configuration.now = { clock.now }
        let client = try await CachingClient(configuration: configuration)
        _ = try await client.data(from: origin.baseURL + "/m")
        clock.advance(by: 5)
        let refetched = try await client.data(from: origin.baseURL + "/m")
        #expect(refetched.outcome == .modified)
        #expect(refetched.reason.contains("a 304 that selected no stored response"), "\(refetched.reason)")
        #expect(String(decoding: refetched.body, as: UTF8.self) == "new\n")
        #expect(origin.requestCount("/m") == 3)
        try await client.shutdown()
        await origin.stop()
    }
}
