import Foundation
import HTTPTypes
import Testing
@testable import HTTPCaching

/// RFC 9111 §2: the primary cache key is the method and the target URI, normalised.
@Suite("RFC 9111 §2 cache key")
struct CacheKeyTests {
    @Test(
        "§2 the target URI is normalised (RFC 3986 §6.2.2, RFC 9110 §4.2.3)",
        arguments: [
            ("HTTPS://Example.COM/a", "https://example.com/a"),  // scheme and host case
            ("http://example.com:80/a", "http://example.com/a"),  // default port
            ("https://example.com:443/a", "https://example.com/a"),
            ("https://example.com:/a", "https://example.com/a"),  // empty port
            ("http://example.com:8080/a", "http://example.com:8080/a"),  // other port kept
            ("https://example.com:80/a", "https://example.com:80/a"),  // 80 is not https's default
            ("https://example.com/a#section", "https://example.com/a"),  // fragment dropped
            ("https://example.com", "https://example.com/"),  // empty path
            ("https://example.com?q=1", "https://example.com/?q=1"),
            ("https://example.com/a%2fb?x=%7e", "https://example.com/a%2Fb?x=%7E"),  // percent-encoding case
            ("https://user:secret@example.com/a", "https://example.com/a"),  // userinfo dropped
            ("https://example.com/A/B?Q=X", "https://example.com/A/B?Q=X"),  // path and query case kept
            ("http://[::1]:80/x", "http://[::1]/x"),
        ])
    func normalisation(input: String, normalised: String) {
        #expect(CacheKey(method: "GET", uri: input)?.uri == normalised)
    }

    @Test("§2 the query is part of the key: different queries are different keys")
    func queryDistinguishes() {
        let page1 = CacheKey(method: "GET", uri: "https://example.com/list?page=1")
        let page2 = CacheKey(method: "GET", uri: "https://example.com/list?page=2")
        #expect(page1 != nil && page2 != nil)
        #expect(page1 != page2)
        #expect(CacheKey(method: "GET", uri: "https://example.com/list") != page1)
    }

    @Test("§2 URIs equal after normalisation give equal keys")
    func equivalentURIs() {
        #expect(CacheKey(method: "GET", uri: "HTTP://EXAMPLE.com:80/a%3a#x") == CacheKey(method: "GET", uri: "http://example.com/a%3A"))
    }

    @Test("§2 the path is case-sensitive")
    func pathCase() {
        #expect(CacheKey(method: "GET", uri: "https://example.com/A") != CacheKey(method: "GET", uri: "https://example.com/a"))
    }

    @Test("§2 a HEAD request is keyed like GET, so a stored GET response answers it")
    func headIsGet() {
        let head = CacheKey(method: "HEAD", uri: Fixture.uri)
        #expect(head?.method == "GET")
        #expect(head == Fixture.key)
    }

    @Test("§2 the method is part of the key")
    func methodDistinguishes() {
        let post = CacheKey(method: "POST", uri: Fixture.uri)
        #expect(post?.method == "POST")
        #expect(post != Fixture.key)
    }

    @Test(
        "§2 only absolute http(s) URIs have a key",
        arguments: ["ftp://example.com/a", "example.com/a", "/a", "https://", "https:///a", "https://user@/a", "mailto:a@example.com", ""])
    func noKey(uri: String) {
        #expect(CacheKey(method: "GET", uri: uri) == nil)
    }

    @Test("§2 a request's key is built from scheme, authority and path")
    func fromRequest() {
        let request = HTTPRequest(method: .get, scheme: "HTTPS", authority: "Example.com:443", path: "/x?y=1")
        #expect(CacheKey(request) == CacheKey(method: "GET", uri: "https://example.com/x?y=1"))
        #expect(CacheKey(request)?.uri == "https://example.com/x?y=1")
    }

    @Test("§2 a request without an authority has no key")
    func requestWithoutAuthority() {
        #expect(CacheKey(HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x")) == nil)
    }

    @Test("§2 a key describes itself as method and URI")
    func description() {
        #expect(CacheKey(method: "GET", uri: "https://example.com/a?b=1")?.description == "GET https://example.com/a?b=1")
    }

    @Test("§2 keys sort by URI, then by method")
    func ordering() throws {
        let a = try #require(CacheKey(method: "POST", uri: "https://example.com/a"))
        let aGet = try #require(CacheKey(method: "GET", uri: "https://example.com/a"))
        let b = try #require(CacheKey(method: "GET", uri: "https://example.com/b"))
        #expect([b, a, aGet].sorted() == [aGet, a, b])
    }

    @Test("§2 a key survives JSON encoding")
    func codable() throws {
        let key = try #require(CacheKey(method: "GET", uri: "https://example.com/a?b=1"))
        let decoded = try JSONDecoder().decode(CacheKey.self, from: JSONEncoder().encode(key))
        #expect(decoded == key)
    }
}
