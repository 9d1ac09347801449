@testable import CachingProxy
import Testing

/// An origin's redirect to its own address, as the proxy's clients get it (nginx's default
/// `proxy_redirect`): they come back through the proxy instead of going around it.
@Suite("Proxy: Location naming the origin")
struct OriginLocationTests {
    private var origin: ProxyOrigin {
        get throws { try ProxyOrigin(parsing: "http://127.0.0.1:8080") }
    }

    @Test("the origin's own address is taken off, path and query kept", arguments: [
        ("http://127.0.0.1:8080/login?next=/a", "/login?next=/a"),
        ("HTTP://127.0.0.1:8080/x", "/x"),
        ("http://127.0.0.1:8080", "/"),
        ("http://127.0.0.1:8080?q=1", "/?q=1"),
        ("http://127.0.0.1:8080/docs#install", "/docs#install"),
        ("http://127.0.0.1:8080#top", "/#top"),
    ])
    func ownAddress(location: String, expected: String) throws {
        #expect(OriginLocation.relative(location, from: try origin) == expected)
    }

    @Test("another origin, another port or scheme, and a relative reference are left as they are", arguments: [
        "http://127.0.0.1:8081/x", "https://127.0.0.1:8080/x", "http://example.com/x", "/already/relative", "http://127.0.0.1:8080.evil.com/x",
        // Made relative, these would name another host (an open redirect the absolute form was not).
        "http://127.0.0.1:8080//evil.example/x", "http://127.0.0.1:8080/\\evil.example/x",
    ])
    func otherLocations(location: String) throws {
        #expect(OriginLocation.relative(location, from: try origin) == nil)
    }

    @Test("a default port written out is the same origin")
    func defaultPort() throws {
        let plain = try ProxyOrigin(parsing: "http://example.com")
        #expect(OriginLocation.relative("http://example.com:80/a", from: plain) == "/a")
    }
}
