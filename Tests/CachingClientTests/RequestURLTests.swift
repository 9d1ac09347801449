import CachingClient
import HTTPTypes
import Testing

/// `CachingClient.url(of:)`: the URL every event and log line names a request by, written
/// byte by byte on every request.
@Suite("The URL a request is named by")
struct RequestURLTests {
    @Test("scheme, authority and path joined as sent, whatever their bytes", arguments: [
        (HTTPRequest(method: .get, scheme: "https", authority: "example.com:8443", path: "/a/b?q=1&r=%C3%A9"),
         "https://example.com:8443/a/b?q=1&r=%C3%A9"),
        (HTTPRequest(method: .get, scheme: "http", authority: "bücher.example", path: "/café/ü"), "http://bücher.example/café/ü"),
        (HTTPRequest(method: .get, scheme: "http", authority: "h", path: "/"), "http://h/"),
        (HTTPRequest(method: .get, scheme: "http", authority: "averyveryveryverylonghostname.example.org", path: String(repeating: "/segment", count: 40)),
         "http://averyveryveryverylonghostname.example.org" + String(repeating: "/segment", count: 40)),
    ])
    func joined(request: HTTPRequest, url: String) {
        #expect(CachingClient.url(of: request) == url)
    }

    @Test("a request without scheme, authority or path gets http, nothing and /")
    func defaults() {
        let request = HTTPRequest(method: .options, scheme: nil, authority: nil, path: nil)
        #expect(CachingClient.url(of: request) == "http:///")
    }

    @Test("a port the transport would trap on is named; no port, an empty one, IPv6 brackets and user information are not mistaken for one", arguments: [
        ("example.com", nil), ("example.com:", nil), ("example.com:8080", nil), ("[::1]", nil), ("[::1]:443", nil),
        ("user:pass@example.com", nil), ("user:pass@example.com:1", nil), ("h:65535", nil),
        ("h:65536", "port 65536 is out of range (1–65535)"), ("h:0", "port 0 is out of range (1–65535)"),
        ("user@[::1]:99999999999999999999999", "port 99999999999999999999999 is out of range (1–65535)"),
        ("h:8a", "the port '8a' is not a number"), ("h:-1", "the port '-1' is not a number"),
        ("h:+80", "the port '+80' is not a number"), ("h:٣٣", "the port '٣٣' is not a number"),
    ] as [(String, String?)])
    func port(authority: String, problem: String?) {
        #expect(AsyncHTTPClientTransport.portProblem(in: authority) == problem)
    }
}
