import AsyncHTTPClient
import Foundation
import HTTPCaching
import HTTPTypes
import NIOCore
import NIOHTTP1

// MARK: - From AsyncHTTPClient's response to a TransportResponse, without intermediate copies

extension AsyncHTTPClientTransport {
    /// The response's header fields, appended in one pass into space reserved for all of them.
    /// A field whose name is not a valid token is left out.
    static func fields(of headers: HTTPHeaders) -> HTTPFields {
        var fields = HTTPFields()
        fields.reserveCapacity(headers.count)
        for (name, value) in headers {
            guard let fieldName = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        return fields
    }

    /// The response's status and header fields, once checked: a response no HTTP/1.1 client
    /// may take as it is becomes a ``TransportError/other(url:detail:)`` naming what is wrong.
    /// - Throws: for a status outside 100–599 (RFC 9110 §15), a `101` to a request that asked
    ///   for no upgrade (§15.2.2), or a body in a transfer coding other than `chunked` (RFC 9112
    ///   §6.1: its bytes would go on coded, with nothing left to say so).
    static func response(of response: HTTPClientResponse, to request: HTTPRequest, url: String) throws -> HTTPResponse {
        let code = Int(response.status.code)
        guard (100...599).contains(code) else {
            throw TransportError.other(url: url, detail: "the origin answered with status \(code), which is not an HTTP status (100 to 599)")
        }
        if code == 101, request.headerFields[.upgrade] == nil {
            throw TransportError.other(url: url, detail: "the origin switched protocols (101) although the request asked for no upgrade")
        }
        // An answer without a body (to a HEAD; 1xx, 204, 304) may name the codings the GET's
        // would have (RFC 9112 §6.1): nothing to decode.
        let status = HTTPResponse.Status(code: code, reasonPhrase: response.status.reasonPhrase)
        if request.method != .head, status.mayHaveContent, response.headers.contains(name: "transfer-encoding"),
            let coding = TransferCodings.firstNotChunked(in: response.headers["transfer-encoding"])
        {
            throw TransportError.other(url: url, detail: "the origin's response has the transfer coding \(coding), which cannot be decoded")
        }
        return HTTPResponse(status: status, headerFields: fields(of: response.headers))
    }

    /// The whole body in one `Data`: each `ByteBuffer` the connection delivers is copied
    /// straight into it, into space reserved for the declared length, so a body with a
    /// `Content-Length` costs one allocation (`collect(upTo:)` and a `Data` of it cost a
    /// gathering buffer and then the copy).
    /// - Throws: ``TransportError/bodyTooLarge(url:limit:)`` when the declared length or the
    ///   bytes received exceed `limit`; ``TransportError/timedOut(url:after:bodyStarted:)`` when a
    ///   part arrives after `deadline` (the exchange's `timeout` has run out). Run it within
    ///   ``translatingErrors(url:timeout:bodyStarted:_:)`` for AsyncHTTPClient's own errors.
    static func collectBody(
        of response: HTTPClientResponse, head: HTTPResponse, method: HTTPRequest.Method, url: String, limit: Int,
        deadline: NIODeadline, timeout: Duration
    ) async throws -> Data {
        var body = Data()
        // What AsyncHTTPClient expects too: a HEAD answer, a 204 or a 304 has no body, whatever
        // its Content-Length says.
        let hasBody = method != .head && head.status.mayHaveContent
        // A negative or unreadable length reserves nothing (the bytes themselves still count).
        if hasBody, let declared = response.headers.first(name: "content-length").flatMap({ Int($0, radix: 10) }), declared >= 0 {
            guard declared <= limit else { throw TransportError.bodyTooLarge(url: url, limit: limit) }
            body.reserveCapacity(declared)
        }
        for try await chunk in response.body {
            guard chunk.readableBytes <= limit - body.count else { throw TransportError.bodyTooLarge(url: url, limit: limit) }
            guard NIODeadline.now() <= deadline else { throw TransportError.timedOut(url: url, after: timeout, bodyStarted: true) }
            chunk.withUnsafeReadableBytes { body.append($0.assumingMemoryBound(to: UInt8.self)) }
        }
        return body
    }
}
