public import Foundation
public import HTTPTypes

/// Sends one HTTP request to the origin and returns the complete response.
///
/// The caching client talks to the network only through this protocol, so an app can plug in
/// its own stack. The default is ``AsyncHTTPClientTransport`` (HTTP/1.1, HTTP/2, TLS).
/// Implementations must not follow redirects (the client caches each hop) nor add caching
/// behaviour of their own.
public protocol Transport: Sendable {
    /// Sends `request` (an absolute request: scheme, authority and path set) with an optional
    /// body and returns the response with its whole body, or throws a ``TransportError``.
    func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> TransportResponse

    /// Sends `request` with a body read part by part from `body` (`length` bytes when known)
    /// and returns as soon as the response head arrives; the response body is read from the
    /// result as it arrives. `timeout` bounds the wait for the head. The default
    /// (``Transport`` extension) collects the request body, calls ``send(_:body:timeout:)`` and
    /// returns the whole response body as one part.
    func stream(_ request: HTTPRequest, body: BodyStream?, length: Int?, timeout: Duration) async throws -> StreamedTransportResponse

    /// Releases connections and threads. Called once by ``CachingClient/shutdown()``.
    func shutdown() async throws
}

/// A response as a transport delivers it.
public struct TransportResponse: Sendable {
    /// Status and header fields.
    public var response: HTTPResponse
    /// The complete body.
    public var body: Data

    /// Creates a response.
    public init(response: HTTPResponse, body: Data) {
        self.response = response
        self.body = body
    }
}

/// Why a transport could not produce a response. These count as origin failures for
/// `stale-if-error`.
public enum TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The connection could not be made (refused, unreachable, DNS).
    case connectionFailed(url: String, detail: String)
    /// No complete response within the timeout; `bodyStarted`: its head had arrived, its body
    /// had not ended (a slow or dripping origin, not a silent one).
    case timedOut(url: String, after: Duration, bodyStarted: Bool = false)
    /// The response body was larger than the client accepts.
    case bodyTooLarge(url: String, limit: Int)
    /// The request could not be expressed (bad URL, bad header).
    case invalidRequest(String)
    /// The origin took the connection and closed it before its response ended (or began).
    case connectionClosed(url: String)
    /// Any other failure.
    case other(url: String, detail: String)
    /// The request's streamed body stopped arriving (from whoever sends it: a proxy's client)
    /// for `after`: the origin was waiting for it, not the other way round.
    case requestBodyStalled(url: String, after: Duration)

    public var description: String {
        switch self {
        case .connectionFailed(let url, let detail): return "cannot connect to \(url): \(detail)"
        case .timedOut(let url, let after, false): return "no response from \(url) within \(after)"
        case .timedOut(let url, let after, true): return "the response from \(url) did not end within \(after) (its body was still arriving)"
        case .bodyTooLarge(let url, let limit): return "response from \(url) is larger than \(limit) bytes"
        case .invalidRequest(let detail): return "invalid request: \(detail)"
        case .connectionClosed(let url): return "request to \(url) failed: the origin closed the connection before its response ended"
        case .other(let url, let detail): return "request to \(url) failed: \(detail)"
        case .requestBodyStalled(let url, let after): return "the request's body stopped arriving: nothing of it for \(after) (sending to \(url))"
        }
    }
}
