import CachingClient
import Foundation
import HTTPCaching
import HTTPTypes

/// What the proxy sends back for one request: the response as it goes on the wire (framing
/// fields excepted), and what the access log says about it.
struct ProxyAnswer: Sendable {
    /// Status and header fields, hop-by-hop fields removed, `Via` and `Cache-Status` added.
    var response: HTTPResponse
    /// The body (empty for HEAD, 1xx, 204 and 304, and when ``streamed`` carries it).
    var body: Data
    /// Whether the connection must close after this response (a request that could not be
    /// read to its end).
    var closeConnection: Bool
    /// The outcome word for the access log (`hit`, `miss`, … or `rejected`, `error`).
    var outcome: String
    /// Why, in words.
    var reason: String
    /// The origin's body as it arrives, when it was too large for the store (then ``body`` is
    /// empty), and its length when the origin declared it.
    var streamed: (parts: BodyStream, length: Int?)?

    /// An answer the proxy makes itself (`400`, `414`, `502`, …): a short text body saying why,
    /// and the request's `Cache-Status`, when it got that far.
    static func local(
        _ status: HTTPResponse.Status, _ message: String, cacheStatus: String? = nil, close: Bool, outcome: String
    ) -> ProxyAnswer {
        var fields = HTTPFields()
        let body = text(message, into: &fields)
        if let cacheStatus { fields.append(HTTPField(name: .cacheStatus, value: cacheStatus)) }
        return ProxyAnswer(
            response: HTTPResponse(status: status, headerFields: fields), body: body, closeConnection: close, outcome: outcome,
            reason: message)
    }

    /// The body of an answer the proxy makes itself — `message` as one line of text — with the
    /// fields every such answer has set in `fields`: a text content type, `no-store` (it says
    /// what happened here, and is never to be stored) and a `Date` (RFC 9110 §6.6.1).
    static func text(_ message: String, into fields: inout HTTPFields) -> Data {
        fields[.contentType] = "text/plain; charset=utf-8"
        fields[.cacheControl] = "no-store"
        if fields[.date] == nil { fields[.date] = HTTPDate.format(Date()) }
        return Data((message + "\n").utf8)
    }

    /// The length of the body ``text(_:into:)`` makes of `message`.
    static func textLength(_ message: String) -> Int { message.utf8.count + 1 }
}
