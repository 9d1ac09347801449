@testable import CachingProxy
import Testing

/// The `Cache-Status` member as a structured-field list (RFC 9211, RFC 8941), without sockets.
@Suite("Cache-Status serialization")
struct CacheStatusTests {
    @Test("a proxy name that is not a structured-field token is refused with a message")
    func invalidName() throws {
        var configuration = CachingProxyConfiguration(origin: try ProxyOrigin(parsing: "http://127.0.0.1:1"))
        configuration.name = "cache scope"
        #expect(throws: CachingProxyError.invalidName("cache scope")) { try configuration.validate() }
    }

    @Test("a failure's status has fwd and detail as tokens")
    func failure() {
        #expect(CacheStatus(failure: "origin-unreachable").fieldValue(cacheName: "cachescope") == "cachescope;fwd=miss;detail=origin-unreachable")
    }

    @Test("origins with a path, another scheme or no host are refused, naming the problem", arguments: [
        ("ftp://example.com", "scheme"), ("http://example.com/base", "path"), ("example.com", "not a URL"), ("http://", "host"),
        ("http://127.0.0.1:99999", "port 99999 is out of range (1–65535)"), ("http://127.0.0.1:0", "port 0 is out of range"),
        // Was taken as percent-encoded ASCII, and every request failed with "unknown host".
        ("http://例え.jp", "the host 例え.jp is not ASCII; give its ASCII (punycode) form"),
    ])
    func invalidOrigin(text: String, problem: String) {
        #expect {
            try ProxyOrigin(parsing: text)
        } throws: { error in
            "\(error)".contains(problem)
        }
    }

    @Test("a non-loopback listening address needs allowRemote")
    func remote() throws {
        var configuration = CachingProxyConfiguration(origin: try ProxyOrigin(parsing: "http://127.0.0.1:1"), host: "0.0.0.0")
        #expect(throws: CachingProxyError.remoteListenNotAllowed(host: "0.0.0.0")) { try configuration.validate() }
        configuration.allowRemote = true
        try configuration.validate()
        #expect(CachingProxyConfiguration.isLoopback("127.0.0.1") && CachingProxyConfiguration.isLoopback("::1"))
        #expect(!CachingProxyConfiguration.isLoopback("10.0.0.1"))
    }

    @Test(
        "an origin at the proxy's own address is refused (every request would loop back to it); another port, host or scheme is not",
        arguments: [
            ("http://127.0.0.1:8080", "127.0.0.1", 8080, true), ("http://localhost:8080", "127.0.0.1", 8080, true),
            ("http://[::1]:8080", "localhost", 8080, true), ("http://127.0.0.1:8080", "0.0.0.0", 8080, true),
            ("http://LOCALHOST", "localhost", 80, true),
            ("http://localhost:8080", "[::1]", 8080, true), ("http://localhost:8080", "0.0.0.0", 8080, true),
            ("http://127.0.0.1:8080", "127.0.0.1", 8081, false), ("http://127.0.0.1:8080", "127.0.0.1", 0, false),
            // Different loopback addresses are different sockets (a review of 27 November).
            ("http://127.0.0.2:8080", "127.0.0.1", 8080, false), ("http://127.0.0.1:8080", "[::1]", 8080, false),
            ("http://[::1]:8080", "0.0.0.0", 8080, false),
            ("https://127.0.0.1:8080", "127.0.0.1", 8080, false), ("http://10.0.0.5:8080", "127.0.0.1", 8080, false),
        ])
    func originAtOwnAddress(origin: String, host: String, port: Int, loops: Bool) throws {
        var configuration = CachingProxyConfiguration(origin: try ProxyOrigin(parsing: origin), host: host, port: port)
        configuration.allowRemote = true
        #expect(configuration.forwardsToItself == loops)
        if loops {
            #expect(throws: CachingProxyError.self) { try configuration.validate() }
        } else {
            try configuration.validate()
        }
    }
}
