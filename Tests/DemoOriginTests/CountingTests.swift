import Foundation
import Testing

@testable import DemoOrigin

@Suite("Request counting and recorded headers", .timeLimit(.minutes(2)))
struct CountingTests {
    @Test("counts are per target, query included, and every status counts")
    func countsPerTarget() async throws {
        try await withOrigin { origin in
            _ = try await LoopbackHTTP.get(origin.port, "/max-age/60?id=1")
            _ = try await LoopbackHTTP.get(origin.port, "/max-age/60?id=1")
            _ = try await LoopbackHTTP.get(origin.port, "/max-age/60?id=2")
            _ = try await LoopbackHTTP.get(origin.port, "/nowhere")
            #expect(origin.requestCount(path: "/max-age/60?id=1") == 2)
            #expect(origin.requestCount(path: "/max-age/60?id=2") == 1)
            #expect(origin.requestCount(path: "/max-age/60") == 0)
            #expect(origin.requestCount(path: "/nowhere") == 1)
            #expect(origin.totalRequestCount() == 4)
            #expect(origin.requestCounts() == ["/max-age/60?id=1": 2, "/max-age/60?id=2": 1, "/nowhere": 1])

            origin.resetCounts()
            #expect(origin.totalRequestCount() == 0)
            #expect(origin.requestCounts().isEmpty)
            #expect(origin.lastRequestHeaders(path: "/nowhere") == nil)
        }
    }

    @Test("lastRequestHeaders shows the conditional headers the client sent")
    func lastHeaders() async throws {
        try await withOrigin { origin in
            _ = try await LoopbackHTTP.get(
                origin.port, "/no-cache?x",
                headers: [("If-None-Match", "\"abc\""), ("If-Modified-Since", "Sun, 06 Nov 1994 08:49:37 GMT")])
            let headers = try #require(origin.lastRequestHeaders(path: "/no-cache?x"))
            #expect(headers.contains { $0.name == "If-None-Match" && $0.value == "\"abc\"" })
            #expect(headers.contains { $0.name == "If-Modified-Since" && $0.value == "Sun, 06 Nov 1994 08:49:37 GMT" })

            _ = try await LoopbackHTTP.get(origin.port, "/no-cache?x")
            let latest = try #require(origin.lastRequestHeaders(path: "/no-cache?x"))
            #expect(!latest.contains { $0.name == "If-None-Match" })
            #expect(origin.lastRequestHeaders(path: "/never") == nil)
        }
    }

    @Test("outage mode answers 503 everywhere, still counting, until switched off")
    func outage() async throws {
        try await withOrigin { origin in
            origin.setOutage(true)
            #expect(origin.isOutage)
            for target in ["/max-age/60", "/status/200", "/items/1", "/nowhere"] {
                let response = try await LoopbackHTTP.get(origin.port, target)
                #expect(response.status == 503, "\(target)")
                #expect(response.header("Cache-Control") == nil)
                #expect(response.text.contains("simulated outage"))
            }
            #expect(origin.totalRequestCount() == 4)
            origin.setOutage(false)
            #expect(try await LoopbackHTTP.get(origin.port, "/max-age/60").status == 200)
        }
    }
}
