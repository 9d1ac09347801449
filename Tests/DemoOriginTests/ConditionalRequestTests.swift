import Foundation
import Testing

@testable import DemoOrigin

@Suite("Conditional requests: 304 Not Modified", .timeLimit(.minutes(2)))
struct ConditionalRequestTests {
    @Test(
        "If-None-Match matching the ETag (exactly, weakly, in a list, or *) gives 304",
        arguments: ["{etag}", "W/{etag}", "\"other\", W/{etag}", "\"a,b\",{etag}", "*"])
    func ifNoneMatchHits(_ template: String) async throws {
        try await withOrigin { origin in
            let first = try await LoopbackHTTP.get(origin.port, "/no-cache")
            let etag = try #require(first.header("ETag"))
            let field = template.replacingOccurrences(of: "{etag}", with: etag)
            let second = try await LoopbackHTTP.get(origin.port, "/no-cache", headers: [("If-None-Match", field)])
            #expect(second.status == 304)
            #expect(second.body.isEmpty)
            #expect(second.header("ETag") == etag)
            #expect(second.header("Cache-Control") == "no-cache")
            #expect(second.header("Date") != nil)
            #expect(second.header("Content-Type") == nil)
        }
    }

    @Test("If-None-Match with other tags gives the full 200")
    func ifNoneMatchMisses() async throws {
        try await withOrigin { origin in
            let response = try await LoopbackHTTP.get(
                origin.port, "/max-age/60", headers: [("If-None-Match", "\"nope\", W/\"still-no\"")])
            #expect(response.status == 200)
            #expect(response.text.contains("/max-age/60"))
        }
    }

    @Test("If-Modified-Since at or after Last-Modified gives 304, before it 200")
    func ifModifiedSince() async throws {
        let clock = TestClock()
        try await withOrigin(now: clock.now) { origin in
            let lastModified = try #require(try await LoopbackHTTP.get(origin.port, "/last-modified").header("Last-Modified"))
            let same = try await LoopbackHTTP.get(origin.port, "/last-modified", headers: [("If-Modified-Since", lastModified)])
            #expect(same.status == 304)
            #expect(same.header("Last-Modified") == lastModified)
            #expect(same.body.isEmpty)
            let later = try await LoopbackHTTP.get(
                origin.port, "/last-modified", headers: [("If-Modified-Since", "Sun, 06 Nov 1994 08:49:37 GMT")])
            #expect(later.status == 304)
            let earlier = try await LoopbackHTTP.get(
                origin.port, "/last-modified", headers: [("If-Modified-Since", "Wed, 26 Oct 1994 08:49:37 GMT")])
            #expect(earlier.status == 200)
            let garbage = try await LoopbackHTTP.get(
                origin.port, "/last-modified", headers: [("If-Modified-Since", "yesterday")])
            #expect(garbage.status == 200)
        }
    }

    @Test("If-None-Match takes precedence over If-Modified-Since")
    func precedence() async throws {
        try await withOrigin { origin in
            let first = try await LoopbackHTTP.get(origin.port, "/max-age/60")
            let lastModified = try #require(first.header("Last-Modified"))
            let response = try await LoopbackHTTP.get(
                origin.port, "/max-age/60",
                headers: [("If-None-Match", "\"stale-tag\""), ("If-Modified-Since", lastModified)])
            #expect(response.status == 200)
        }
    }

    @Test("a 304 repeats Vary and Expires when the 200 has them")
    func notModifiedKeepsVaryAndExpires() async throws {
        try await withOrigin { origin in
            let vary = try await LoopbackHTTP.get(origin.port, "/vary/lang", headers: [("Accept-Language", "fr")])
            let vary304 = try await LoopbackHTTP.get(
                origin.port, "/vary/lang",
                headers: [("Accept-Language", "fr"), ("If-None-Match", try #require(vary.header("ETag")))])
            #expect(vary304.status == 304)
            #expect(vary304.header("Vary") == "Accept-Language")
            #expect(vary304.header("Cache-Control") == "max-age=60")

            let expires = try await LoopbackHTTP.get(origin.port, "/expires/30")
            let expires304 = try await LoopbackHTTP.get(
                origin.port, "/expires/30", headers: [("If-None-Match", try #require(expires.header("ETag")))])
            #expect(expires304.status == 304)
            #expect(expires304.header("Expires") != nil)
        }
    }

    @Test("/rotating/{N}: the ETag holds for N seconds of the server clock, then a 304 is no longer possible")
    func rotating() async throws {
        let clock = TestClock()
        try await withOrigin(now: clock.now) { origin in
            let first = try await LoopbackHTTP.get(origin.port, "/rotating/10")
            #expect(first.header("Cache-Control") == "max-age=1")
            let etag = try #require(first.header("ETag"))
            let current = try await LoopbackHTTP.get(origin.port, "/rotating/10", headers: [("If-None-Match", etag)])
            #expect(current.status == 304)

            clock.advance(by: 10)
            let changed = try await LoopbackHTTP.get(origin.port, "/rotating/10", headers: [("If-None-Match", etag)])
            #expect(changed.status == 200)
            #expect(changed.header("ETag") != etag)
            #expect(changed.body != first.body)
        }
    }

    @Test("HEAD answers the GET's headers, Content-Length included, with no body")
    func head() async throws {
        try await withOrigin { origin in
            let get = try await LoopbackHTTP.get(origin.port, "/max-age/60")
            let head = try await LoopbackHTTP.send("HEAD", port: origin.port, target: "/max-age/60")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == String(get.body.count))
            #expect(head.header("ETag") == get.header("ETag"))
        }
    }

    @Test("a request without validators to an endpoint without ETag is never 304")
    func noValidator() async throws {
        try await withOrigin { origin in
            let response = try await LoopbackHTTP.get(origin.port, "/no-store", headers: [("If-None-Match", "\"x\"")])
            #expect(response.status == 200)
        }
    }
}
