import Foundation
import HTTPTypes
import Testing
@testable import HTTPCaching

/// RFC 9111 §4.4: invalidating stored responses after unsafe requests.
@Suite("RFC 9111 §4.4 invalidation")
struct InvalidationTests {
    let rules = Fixture.privateCache

    func invalidated(_ method: HTTPRequest.Method = .post, status: Int = 200, path: String = "/articles/1", _ lines: String...) -> [String] {
        let response = HTTPResponse(status: HTTPResponse.Status(code: status), headerFields: Fixture.fields(lines))
        return rules.invalidatedKeys(request: Fixture.request(method, path: path), response: response).map(\.description)
    }

    @Test("§4.4 an unsafe method with a 2xx or 3xx answer invalidates the target URI", arguments: [
        (HTTPRequest.Method.post, 200), (.post, 201), (.put, 204), (.delete, 200), (.patch, 200), (.post, 303), (.put, 301),
    ])
    func unsafeSuccess(method: HTTPRequest.Method, status: Int) {
        #expect(invalidated(method, status: status) == ["GET https://example.com/articles/1"])
    }

    @Test("§4.4 error answers do not invalidate", arguments: [400, 404, 409, 500, 503])
    func errorStatus(status: Int) {
        #expect(invalidated(.post, status: status).isEmpty)
    }

    @Test("§4.4 a 1xx answer does not invalidate")
    func informational() {
        #expect(invalidated(.post, status: 100).isEmpty)
    }

    @Test("§4.4 safe methods never invalidate", arguments: [HTTPRequest.Method.get, .head, .options, .trace])
    func safeMethods(method: HTTPRequest.Method) {
        #expect(invalidated(method, status: 200, "Location: /articles/2").isEmpty)
    }

    @Test("§4.4 the target URI keeps its query")
    func queryKept() {
        #expect(invalidated(.post, path: "/search?q=swift") == ["GET https://example.com/search?q=swift"])
    }

    @Test("§4.4 a same-origin Location is invalidated too")
    func locationSameOrigin() {
        #expect(invalidated(.post, status: 201, "Location: https://example.com/articles/2") == [
            "GET https://example.com/articles/1", "GET https://example.com/articles/2",
        ])
    }

    @Test("§4.4 a same-origin Content-Location is invalidated too")
    func contentLocation() {
        #expect(invalidated(.put, "Content-Location: /articles/1/v2") == ["GET https://example.com/articles/1", "GET https://example.com/articles/1/v2"])
    }

    @Test(
        "§4.4 relative references are resolved against the target URI",
        arguments: [
            ("/other", "GET https://example.com/other"), ("draft", "GET https://example.com/articles/draft"),
            ("//example.com/x", "GET https://example.com/x"), ("HTTPS://EXAMPLE.com:443/y", "GET https://example.com/y"),
            // Each was resolved wrongly (a hunt of 27 November): a query alone, dot segments, a `://` in a query.
            ("?q=1", "GET https://example.com/articles/1?q=1"), ("../x", "GET https://example.com/x"), ("./y", "GET https://example.com/articles/y"),
            ("/r?u=http://x", "GET https://example.com/r?u=http://x"), ("/a/./b/../../c", "GET https://example.com/c"),
            ("x?y=1#z", "GET https://example.com/articles/x?y=1"),
        ])
    func relativeResolved(location: String, key: String) {
        #expect(invalidated(.post, "Location: \(location)") == ["GET https://example.com/articles/1", key])
    }

    /// Foundation's URL percent-encoded `|` in the resolved reference, so it named no stored key
    /// (a review of 27 November).
    @Test("§4.4 a reference is resolved over the text as written, nothing re-encoded")
    func resolvedAsWritten() {
        let resolved = CacheRules.resolve("?p=2", against: "https://example.com/a|b")
        #expect(resolved == "https://example.com/a|b?p=2")
        #expect(CacheRules.resolve("../c%2Fd", against: "https://example.com/a/b") == "https://example.com/c%2Fd")
    }

    @Test(
        "§4.4 Location and Content-Location of another origin are not invalidated",
        arguments: ["https://evil.example/articles/1", "http://example.com/articles/2", "https://example.com:8443/a", "//other.example/x"])
    func crossOrigin(location: String) {
        #expect(invalidated(.post, "Location: \(location)", "Content-Location: \(location)") == ["GET https://example.com/articles/1"])
    }

    @Test("§4.4 a Location equal to the target is listed once")
    func noDuplicates() {
        #expect(invalidated(.post, "Location: /articles/1", "Content-Location: https://example.com/articles/1") == ["GET https://example.com/articles/1"])
    }

    @Test("§4.4 both Location and Content-Location are invalidated, in that order")
    func both() {
        #expect(invalidated(.post, "Content-Location: /b", "Location: /a") == [
            "GET https://example.com/articles/1", "GET https://example.com/a", "GET https://example.com/b",
        ])
    }

    @Test("§4.4 a request without an absolute URI invalidates nothing")
    func noTarget() {
        let request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/articles/1")
        #expect(rules.invalidatedKeys(request: request, response: Fixture.response(200)).isEmpty)
    }

    @Test("§4.4 an invalidated key matches the key a later GET is stored under")
    func keyMatchesLookup() throws {
        let keys = rules.invalidatedKeys(request: Fixture.request(.delete), response: Fixture.response(204))
        #expect(keys == [try #require(CacheKey(Fixture.get()))])
    }
}
