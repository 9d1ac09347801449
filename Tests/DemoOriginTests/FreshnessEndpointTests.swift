import Foundation
import Testing

@testable import DemoOrigin

@Suite("Freshness endpoints: headers a cache decides by", .timeLimit(.minutes(2)))
struct FreshnessEndpointTests {
    /// 1994-11-06 08:49:37 UTC, the RFC's example date.
    static let clock = TestClock()

    struct Case: Sendable, CustomTestStringConvertible {
        var target: String
        var cacheControl: String?
        var hasETag: Bool
        var testDescription: String { target }
    }

    @Test(
        "each endpoint's Cache-Control and validator",
        arguments: [
            Case(target: "/max-age/60", cacheControl: "max-age=60", hasETag: true),
            Case(target: "/s-maxage/120", cacheControl: "public, max-age=1, s-maxage=120", hasETag: true),
            Case(target: "/no-cache", cacheControl: "no-cache", hasETag: true),
            Case(target: "/last-modified", cacheControl: nil, hasETag: false),
            Case(target: "/no-store", cacheControl: "no-store", hasETag: false),
            Case(target: "/private/30", cacheControl: "private, max-age=30", hasETag: true),
            Case(target: "/immutable", cacheControl: "max-age=31536000, immutable", hasETag: true),
            Case(target: "/swr/5/60", cacheControl: "max-age=5, stale-while-revalidate=60", hasETag: true),
            Case(target: "/expires/90", cacheControl: nil, hasETag: true),
            Case(target: "/vary/lang", cacheControl: "max-age=60", hasETag: true),
            Case(target: "/items/1", cacheControl: "max-age=60", hasETag: true),
        ])
    func headers(_ testCase: Case) async throws {
        try await withOrigin(now: Self.clock.now) { origin in
            let response = try await LoopbackHTTP.get(origin.port, testCase.target + "?q=1")
            #expect(response.status == 200)
            #expect(response.header("Cache-Control") == testCase.cacheControl)
            #expect((response.header("ETag") != nil) == testCase.hasETag)
            if let etag = response.header("ETag") {
                #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""), "strong, quoted ETag")
            }
            #expect(response.header("Date") == "Sun, 06 Nov 1994 08:49:37 GMT")
            #expect(response.header("Content-Length") == String(response.body.count))
            #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(response.text.contains(testCase.target + "?q=1"))
        }
    }

    @Test("the Date header is an IMF-fixdate from the real clock by default")
    func realDate() async throws {
        try await withOrigin { origin in
            let date = try #require(try await LoopbackHTTP.get(origin.port, "/no-store").header("Date"))
            let pattern = /(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT/
            #expect(date.wholeMatch(of: pattern) != nil)
            let seconds = try #require(HTTPDateFormatting.parse(date))
            #expect(abs(Double(seconds) - Date().timeIntervalSince1970) < 60)
        }
    }

    @Test("/max-age Last-Modified is the start time; /last-modified is ten days older and alone")
    func lastModifiedValues() async throws {
        try await withOrigin(now: Self.clock.now) { origin in
            let maxAge = try await LoopbackHTTP.get(origin.port, "/max-age/10")
            #expect(maxAge.header("Last-Modified") == "Sun, 06 Nov 1994 08:49:37 GMT")
            let heuristic = try await LoopbackHTTP.get(origin.port, "/last-modified")
            #expect(heuristic.header("Last-Modified") == "Thu, 27 Oct 1994 08:49:37 GMT")
            #expect(heuristic.header("Cache-Control") == nil && heuristic.header("Expires") == nil)
        }
    }

    @Test("/expires/{N} sets Expires to Date plus N seconds")
    func expires() async throws {
        try await withOrigin(now: Self.clock.now) { origin in
            let response = try await LoopbackHTTP.get(origin.port, "/expires/90")
            #expect(response.header("Expires") == "Sun, 06 Nov 1994 08:51:07 GMT")
        }
    }

    @Test("different queries give different bodies and ETags; the same target the same")
    func queriesDiffer() async throws {
        try await withOrigin(now: Self.clock.now) { origin in
            let a = try await LoopbackHTTP.get(origin.port, "/max-age/60?id=1")
            let b = try await LoopbackHTTP.get(origin.port, "/max-age/60?id=2")
            let again = try await LoopbackHTTP.get(origin.port, "/max-age/60?id=1")
            #expect(a.body != b.body)
            #expect(a.header("ETag") != b.header("ETag"))
            #expect(a.body == again.body && a.header("ETag") == again.header("ETag"))
        }
    }
}
