import AsyncHTTPClient
import HTTPCaching
public import HTTPTypes
import NIOCore
import NIOHTTP1

extension AsyncHTTPClientTransport {
    /// Sends `request` with its body streamed from `body` (AsyncHTTPClient's
    /// `HTTPClientRequest.Body.stream`, with `Content-Length` when `length` is known, chunked
    /// otherwise) and returns when the response head arrives. The response body is read from
    /// the connection only as the result's ``BodyStream`` is read, so neither body is held
    /// whole here; the transport's `maximumBodySize` does not apply (it bounds collected
    /// bodies only). `timeout` bounds the wait for the head — counted from the body's end, each
    /// of its parts in turn allowed as long after the one before (``UploadWatch``).
    /// - Throws: ``TransportError`` when the request cannot be sent or no head arrives in time;
    ///   reading the body throws ``TransportError`` too (e.g. the origin closed mid-body).
    public func stream(_ request: HTTPRequest, body: BodyStream?, length: Int?, timeout: Duration) async throws -> StreamedTransportResponse {
        let prepared = try Self.outgoing(request)
        var outgoing = prepared.request
        let url = prepared.url
        let watch = body.map { _ in UploadWatch() }
        if let body, let watch {
            let declared = length.map { HTTPClientRequest.Body.Length.known(Int64($0)) } ?? .unknown
            outgoing.body = .stream(watch.watching(body), length: declared)
        }
        let sending = outgoing
        let client = self.client
        let response = try await translatingErrors(url: url, timeout: timeout) {
            // A streamed request body is read once: only a request without one is sent again.
            guard let watch else {
                return try await execute(sending, method: request.method, deadline: NIODeadline.now() + .nanoseconds(timeout.inNanoseconds))
            }
            return try await watch.race(url: url, timeout: timeout) { try await client.execute(sending, deadline: .distantFuture) }
        }
        let head = try Self.response(of: response, to: request, url: url)
        // A HEAD answer, a 204 or a 304 has no body, whatever its Content-Length says.
        guard head.status.mayHaveContent, request.method != .head else {
            return StreamedTransportResponse(response: head, body: BodyStream(complete: []))
        }
        let parts = TranslatedParts(body: response.body, transport: self, url: url, timeout: timeout)
        return StreamedTransportResponse(response: head, body: BodyStream(parts: parts))
    }
}

/// AsyncHTTPClient's response body with its errors turned into ``TransportError``s, as the
/// whole-body ``AsyncHTTPClientTransport/send(_:body:timeout:)`` reports them.
private struct TranslatedParts: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let body: HTTPClientResponse.Body
    let transport: AsyncHTTPClientTransport
    let url: String
    let timeout: Duration

    func makeAsyncIterator() -> Iterator {
        Iterator(parts: body.makeAsyncIterator(), transport: transport, url: url, timeout: timeout)
    }

    struct Iterator: AsyncIteratorProtocol {
        var parts: HTTPClientResponse.Body.AsyncIterator
        let transport: AsyncHTTPClientTransport
        let url: String
        let timeout: Duration

        mutating func next() async throws -> ByteBuffer? {
            var parts = self.parts
            defer { self.parts = parts }
            return try await transport.translatingErrors(url: url, timeout: timeout, bodyStarted: true) { try await parts.next() }
        }
    }
}
