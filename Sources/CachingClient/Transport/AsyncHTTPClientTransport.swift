public import AsyncHTTPClient
import ConnectionErrors
import HTTPCaching
public import Foundation
public import HTTPTypes
import NIOCore
import NIOHTTP1
import Tracing

/// The default ``Transport``: AsyncHTTPClient with redirects and decompression off (the cache
/// stores exactly what the origin sent and follows redirects itself, hop by hop).
///
/// It makes its own `HTTPClient`, or uses one the app already has (sharing its connection
/// pool); that client should be set up like ``recommendedConfiguration``.
public final class AsyncHTTPClientTransport: Transport {
    let client: HTTPClient
    private let ownsClient: Bool
    private let maximumBodySize: Int

    /// Redirects not followed (the caching client follows them hop by hop, each through the
    /// cache), no decompression (the store keeps what the origin sent), a 10 s connect
    /// timeout, no connection retries (a refused connection must fail at once, so that
    /// `stale-if-error` can answer, rather than be retried until the request's deadline), and
    /// no tracing when no tracer has been bootstrapped: AsyncHTTPClient keeps the tracer it
    /// finds when the configuration is made, and with the no-op one it would still build
    /// every request's span attributes only to drop them (about 6 µs a request here).
    public static var recommendedConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        configuration.timeout = .init(connect: .seconds(10))
        configuration.connectionPool.retryConnectionEstablishment = false
        if configuration.tracing.tracer is NoOpTracer { configuration.tracing.tracer = nil }
        return configuration
    }

    /// AsyncHTTPClient's own limit of connections to one host: 8.
    public static let defaultConnectionsPerOrigin = 8

    /// Creates a transport with its own `HTTPClient` (``recommendedConfiguration``, NIO's
    /// shared event loops), shut down by ``shutdown()``.
    /// - Parameters:
    ///   - maximumBodySize: the largest response body accepted (default 64 MiB).
    ///   - connectionsPerOrigin: the most connections open to one origin (default 8); a
    ///     request past them waits for one to be free.
    ///   - readTimeout: how long a connection may stay silent while a response is awaited or
    ///     read before the request fails as timed out (default: no limit). ``CachingClient``
    ///     sets its `requestTimeout`, so an origin that stops sending mid-body is given up.
    public init(
        maximumBodySize: Int = 64 << 20, connectionsPerOrigin: Int = defaultConnectionsPerOrigin, readTimeout: Duration? = nil
    ) {
        var configuration = Self.recommendedConfiguration
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(1, connectionsPerOrigin)
        if let readTimeout { configuration.timeout.read = .nanoseconds(readTimeout.inNanoseconds) }
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        ownsClient = true
        self.maximumBodySize = maximumBodySize
    }

    /// Creates a transport on an `HTTPClient` the app owns and shuts down itself (``shutdown()``
    /// leaves it running). Set it up like ``recommendedConfiguration``: with redirects
    /// followed by the `HTTPClient`, the cache would store the final response under the first
    /// URL.
    public init(client: HTTPClient, maximumBodySize: Int = 64 << 20) {
        self.client = client
        ownsClient = false
        self.maximumBodySize = maximumBodySize
    }

    /// Sends `request` through AsyncHTTPClient and collects the whole response, up to the
    /// configured body limit: the body copied once, from the connection's buffers into the
    /// response's `Data`.
    /// - Throws: ``TransportError`` when the request cannot be sent, times out, or its body is
    ///   over the limit.
    public func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> TransportResponse {
        let prepared = try Self.outgoing(request)
        var outgoing = prepared.request
        let url = prepared.url
        if let body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        // The timeout covers the whole exchange: AsyncHTTPClient's deadline ends at the head,
        // and a body dripped a byte at a time never trips its read timeout.
        let deadline = NIODeadline.now() + .nanoseconds(timeout.inNanoseconds)
        let (response, head) = try await translatingErrors(url: url, timeout: timeout) {
            let response = try await execute(outgoing, method: request.method, deadline: deadline)
            return (response, try Self.response(of: response, to: request, url: url))
        }
        // The head came: a timeout now is a body that did not end, not a missing response.
        let body = try await translatingErrors(url: url, timeout: timeout, bodyStarted: true) {
            try await Self.collectBody(
                of: response, head: head, method: request.method, url: url, limit: maximumBodySize, deadline: deadline, timeout: timeout)
        }
        return TransportResponse(response: head, body: body)
    }

    /// Sends `outgoing` and waits for its head, until `deadline`. A request of a safe method
    /// (RFC 9110 §9.2.1) whose connection the origin closed before any response is sent once
    /// more, on another connection, as RFC 9112 §9.3.1.1 allows: what a kept-alive connection
    /// the origin had just closed looks like. Only a request whose body can be sent again
    /// (`.bytes`, or none). Both tries share the deadline: the timeout is the exchange's.
    func execute(_ outgoing: HTTPClientRequest, method: HTTPRequest.Method, deadline: NIODeadline) async throws -> HTTPClientResponse {
        do {
            return try await client.execute(outgoing, deadline: deadline)
        } catch let error as HTTPClientError
            where error == .remoteConnectionClosed && !Task.isCancelled && [.get, .head, .options, .trace].contains(method)
        {
            return try await client.execute(outgoing, deadline: deadline)
        }
    }

    /// The AsyncHTTPClient request for `request`, and its URL as errors name it.
    static func outgoing(_ request: HTTPRequest) throws -> (request: HTTPClientRequest, url: String) {
        guard let scheme = request.scheme, let authority = request.authority else {
            throw TransportError.invalidRequest("the request has no scheme or host")
        }
        let url = "\(scheme)://\(authority)\(request.path ?? "/")"
        // AsyncHTTPClient traps on a port beyond 16 bits (a URL the user typed, or a redirect's
        // Location): refused here with the reason.
        if let problem = portProblem(in: authority) { throw TransportError.invalidRequest("\(url): \(problem)") }
        var outgoing = HTTPClientRequest(url: url)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        outgoing.headers.reserveCapacity(request.headerFields.count)
        for field in request.headerFields { outgoing.headers.add(name: field.name.rawName, value: field.value) }
        return (outgoing, url)
    }

    /// What is wrong with the port of `authority` (`host`, `host:port`, `[v6]:port`), or `nil`
    /// when it has none or a usable one (1–65535): `port 70000 is out of range (1–65535)`.
    public static func portProblem(in authority: String) -> String? {
        // Read as bytes: on every request, so no grapheme breaking. After any user information;
        // the port follows the last colon, unless that colon is inside an IPv6 literal's brackets.
        let bytes = authority.utf8
        let hostStart = bytes.lastIndex(of: UInt8(ascii: "@")).map(bytes.index(after:)) ?? bytes.startIndex
        guard let colon = bytes[hostStart...].lastIndex(of: UInt8(ascii: ":")),
            !bytes[colon...].contains(UInt8(ascii: "]"))
        else { return nil }
        let digits = bytes[bytes.index(after: colon)...]
        if digits.isEmpty { return nil }  // `host:` means the default port (RFC 3986 §3.2.3)
        let text = Substring(digits)
        guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return "the port '\(text)' is not a number" }
        guard let port = Int(text), (1...65_535).contains(port) else { return "port \(text) is out of range (1–65535)" }
        return nil
    }

    /// Runs `operation`, turning what AsyncHTTPClient throws into a ``TransportError`` (or a
    /// `CancellationError` when the asking task was cancelled). `bodyStarted`: the response's
    /// head has come, so a timeout is a body that did not end, not a missing response.
    func translatingErrors<Result>(
        url: String, timeout: Duration, bodyStarted: Bool = false, _ operation: () async throws -> Result
    ) async throws -> Result {
        do {
            return try await operation()
        } catch let error as HTTPClientError {
            // The request was cancelled because the task asking for it was.
            if Task.isCancelled, error == .cancelled { throw CancellationError() }
            throw Self.translate(error, url: url, timeout: timeout, limit: maximumBodySize, bodyStarted: bodyStarted)
        } catch let error as TransportError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as HTTPParserError {
            // The connection was made: what came back was not a whole HTTP/1.1 response.
            if error == .invalidEOFState { throw TransportError.connectionClosed(url: url) }
            throw TransportError.other(url: url, detail: Self.describe(error))
        } catch {
            throw TransportError.connectionFailed(url: url, detail: ConnectionFailureText.describe(error))
        }
    }

    /// What a response that NIO's HTTP/1.1 parser refused was: not HTTP.
    static func describe(_ error: HTTPParserError) -> String {
        "the origin's response is not valid HTTP/1.1 (\(error))"
    }

    /// Shuts the underlying `HTTPClient` down, unless it was given by the app (then the app
    /// owns it).
    public func shutdown() async throws {
        guard ownsClient else { return }
        try await client.shutdown()
    }

    /// A transport released without ``shutdown()`` (an app that forgot it) shuts its own
    /// client down, in the background: AsyncHTTPClient stops a debug build whose `HTTPClient`
    /// goes away running. (Already shut down: the call fails, quietly.)
    deinit {
        if ownsClient { client.shutdown().whenComplete { _ in } }
    }

    private static func translate(_ error: HTTPClientError, url: String, timeout: Duration, limit: Int, bodyStarted: Bool) -> TransportError {
        let timeouts: [HTTPClientError] = [.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout]
        if timeouts.contains(error) { return .timedOut(url: url, after: timeout, bodyStarted: bodyStarted) }
        // The origin took the connection and closed it: it is reachable, its answer is missing.
        if error == .remoteConnectionClosed { return .connectionClosed(url: url) }
        if error == .getConnectionFromPoolTimeout {
            return .other(url: url, detail: "every connection to the origin stayed busy for the connect timeout; none was free for this request")
        }
        let connection: [HTTPClientError] = [.alreadyShutdown, .cancelled]
        if connection.contains(error) { return .connectionFailed(url: url, detail: String(describing: error)) }
        if [HTTPClientError.invalidURL, .emptyHost, .emptyScheme].contains(error) {
            return .invalidRequest("\(url): \(error)")
        }
        return .other(url: url, detail: String(describing: error))
    }
}
