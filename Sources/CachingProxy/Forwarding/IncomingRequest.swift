import CachingClient
import Foundation
import HTTPTypes

/// A client's request as the proxy received it, checked and ready to forward.
struct IncomingRequest: Sendable {
    /// The method.
    var method: HTTPRequest.Method
    /// The path and query to forward (`/a?b`), from an origin-form or absolute-form target.
    var path: String
    /// The request target exactly as sent, for the access log.
    var target: String
    /// `1.1` or `1.0`.
    var version: String
    /// The header fields as received.
    var fields: HTTPFields
    /// The body, read from the connection as the origin takes it, when there is one.
    var body: BodyStream?
    /// The body's declared length (`Content-Length`); `nil` for a chunked body.
    var bodyLength: Int?
    /// The client's IP address, for the access log.
    var clientAddress: String
    /// When the request head arrived.
    var received: Date

    /// The request to send through the cache to `origin`: hop-by-hop fields and those
    /// `Connection` names removed, `Host` replaced by the origin's authority (nginx's default
    /// `proxy_set_header Host $proxy_host`), `Content-Length` left to the transport, `Expect`
    /// answered here, and `Via` appended. `X-Forwarded-For` and `Forwarded` pass unchanged, as
    /// nginx passes them by default.
    ///
    /// A HEAD goes through the cache as a GET (nginx's default `proxy_cache_convert_head on`):
    /// a stored response to GET answers it (RFC 9110 §9.3.2: HEAD gets the header fields of a
    /// GET), and on a miss the GET's response is stored for both; the proxy sends no body.
    func forwarded(to origin: ProxyOrigin, pseudonym: String) -> HTTPRequest {
        // Proxy-Authorization is for this proxy (RFC 9110 §11.7.2), which asks for none: it
        // would hand the client's proxy credentials to the origin.
        var fields = HopByHopFields.removing(from: fields, alsoRemoving: ["host", "content-length", "expect", "proxy-authorization"])
        fields = HopByHopFields.addingVia(fields, protocolVersion: version, pseudonym: pseudonym)
        let forwardedMethod = method == .head ? .get : method
        return HTTPRequest(method: forwardedMethod, scheme: origin.scheme, authority: origin.authority, path: path, headerFields: fields)
    }
}
