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
    /// The body, when there was one.
    var body: Data?
    /// The client's IP address, for the access log.
    var clientAddress: String
    /// When the request head arrived.
    var received: Date

    /// The request to send through the cache to `origin`: hop-by-hop fields and those
    /// `Connection` names removed, `Host` replaced by the origin's authority (nginx's default
    /// `proxy_set_header Host $proxy_host`), `Content-Length` left to the transport, `Expect`
    /// answered here, and `Via` appended. `X-Forwarded-For` and `Forwarded` pass unchanged, as
    /// nginx passes them by default.
    func forwarded(to origin: ProxyOrigin, pseudonym: String) -> HTTPRequest {
        var fields = HopByHopFields.removing(from: fields, alsoRemoving: ["host", "content-length", "expect"])
        fields = HopByHopFields.addingVia(fields, protocolVersion: version, pseudonym: pseudonym)
        return HTTPRequest(method: method, scheme: origin.scheme, authority: origin.authority, path: path, headerFields: fields)
    }
}
