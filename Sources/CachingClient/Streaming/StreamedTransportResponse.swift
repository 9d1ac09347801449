import Foundation
public import HTTPTypes
import NIOCore

/// A response as a streaming transport delivers it: the head at once, the body as it arrives.
public struct StreamedTransportResponse: Sendable {
    /// Status and header fields.
    public var response: HTTPResponse
    /// The body, read once.
    public var body: BodyStream

    /// Creates a response.
    public init(response: HTTPResponse, body: BodyStream) {
        self.response = response
        self.body = body
    }
}

extension Transport {
    /// The whole-body fallback: collects `body`, sends it with ``send(_:body:timeout:)`` and
    /// returns the response's body as one part. A transport that can stream implements
    /// ``stream(_:body:length:timeout:)`` itself (``AsyncHTTPClientTransport`` does).
    public func stream(_ request: HTTPRequest, body: BodyStream?, length: Int?, timeout: Duration) async throws -> StreamedTransportResponse {
        var collected: Data?
        if let body {
            var bytes = Data()
            if let length { bytes.reserveCapacity(length) }
            for try await part in body { bytes.append(contentsOf: part.readableBytesView) }
            collected = bytes
        }
        let whole = try await send(request, body: collected, timeout: timeout)
        return StreamedTransportResponse(response: whole.response, body: BodyStream(complete: [ByteBuffer(bytes: whole.body)]))
    }
}
