@testable import CachingClient
import HTTPTypes
import Testing

/// The request a redirect leads to (RFC 9110 §15.4): credentials not given to another origin,
/// content and its fields dropped when the method becomes GET, HEAD kept.
@Suite("Redirects: the next hop's method and fields")
struct RedirectHopTests {
    private func request(_ method: HTTPRequest.Method, _ url: String, _ fields: [(HTTPField.Name, String)] = []) throws -> HTTPRequest {
        var headers = HTTPFields()
        for (name, value) in fields { headers.append(HTTPField(name: name, value: value)) }
        return try #require(CachingClient.request(url: url, method: method, headers: headers))
    }

    private let credentials: [(HTTPField.Name, String)] = [
        (.authorization, "Bearer secret"), (.cookie, "sid=1"), (.proxyAuthorization, "Basic eA=="), (.accept, "text/plain"),
    ]

    @Test("a hop to another origin drops Authorization, Cookie and Proxy-Authorization, and keeps the rest",
          arguments: ["http://localhost:8080/next", "https://127.0.0.1:8080/next", "http://127.0.0.1:8081/next"])
    func otherOrigin(target: String) throws {
        let hop = RedirectHop.next(after: try request(.get, "http://127.0.0.1:8080/a", credentials), status: 302, to: try request(.get, target))
        #expect(hop.request.headerFields[.authorization] == nil)
        #expect(hop.request.headerFields[.cookie] == nil)
        #expect(hop.request.headerFields[.proxyAuthorization] == nil)
        #expect(hop.request.headerFields[.accept] == "text/plain")
        #expect(hop.request.authority == (try request(.get, target)).authority)
    }

    @Test("a hop within the origin keeps the credentials, whatever the case of the host or a default port written out",
          arguments: ["http://127.0.0.1:8080/next", "http://EXAMPLE.com:80/next"])
    func sameOrigin(target: String) throws {
        let from = target.contains("EXAMPLE") ? "http://example.com/a" : "http://127.0.0.1:8080/a"
        let hop = RedirectHop.next(after: try request(.get, from, credentials), status: 301, to: try request(.get, target))
        #expect(hop.request.headerFields[.authorization] == "Bearer secret")
        #expect(hop.request.headerFields[.cookie] == "sid=1")
    }

    @Test("a 303 turns a POST into a GET without its content or the fields that describe it")
    func seeOther() throws {
        let post = try request(.post, "http://h/form", [
            (.contentType, "application/json"), (.contentLength, "2"), (.expect, "100-continue"), (.lastModified, "Tue, 01 Dec 2026 00:00:00 GMT"),
            (.accept, "*/*"),
        ])
        let hop = RedirectHop.next(after: post, status: 303, to: try request(.get, "http://h/done"))
        #expect(hop.request.method == .get)
        #expect(!hop.keepsBody)
        #expect(hop.request.headerFields[.contentType] == nil)
        #expect(hop.request.headerFields[.contentLength] == nil)
        #expect(hop.request.headerFields[.expect] == nil, "no 100-continue without content")
        #expect(hop.request.headerFields[.lastModified] == nil)
        #expect(hop.request.headerFields[.accept] == "*/*")
    }

    @Test("a HEAD stays a HEAD on a 303; a 307 and 308 keep the method and the body")
    func methodKept() throws {
        let head = RedirectHop.next(after: try request(.head, "http://h/a"), status: 303, to: try request(.get, "http://h/b"))
        #expect(head.request.method == .head)
        for status in [307, 308] {
            let put = RedirectHop.next(after: try request(.put, "http://h/a", [(.contentType, "text/plain")]), status: status, to: try request(.get, "http://h/b"))
            #expect(put.request.method == .put)
            #expect(put.keepsBody)
            #expect(put.request.headerFields[.contentType] == "text/plain")
        }
    }
}
