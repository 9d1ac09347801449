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
}
