import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1

/// The default ``Transport``: AsyncHTTPClient with redirects and decompression off (the cache
/// stores exactly what the origin sent and follows redirects itself, hop by hop).
public final class AsyncHTTPClientTransport: Transport {
    private let client: HTTPClient
    private let maximumBodySize: Int

    /// Creates a transport with its own `HTTPClient`.
    /// - Parameter maximumBodySize: the largest response body accepted (default 64 MiB).
    public init(maximumBodySize: Int = 64 << 20) {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        configuration.timeout = .init(connect: .seconds(10))
        // A refused connection must fail at once (so stale-if-error can answer), not be
        // retried until the request's deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.maximumBodySize = maximumBodySize
    }

    public func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> TransportResponse {
        guard let scheme = request.scheme, let authority = request.authority else {
            throw TransportError.invalidRequest("the request has no scheme or host")
        }
        let url = "\(scheme)://\(authority)\(request.path ?? "/")"
        var outgoing = HTTPClientRequest(url: url)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headerFields { outgoing.headers.add(name: field.name.rawName, value: field.value) }
        if let body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let nanoseconds = Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        do {
            let response = try await client.execute(outgoing, timeout: .nanoseconds(nanoseconds))
            var fields = HTTPFields()
            for (name, value) in response.headers {
                guard let fieldName = HTTPField.Name(name) else { continue }
                fields.append(HTTPField(name: fieldName, value: value))
            }
            let collected = try await response.body.collect(upTo: maximumBodySize)
            let status = HTTPResponse.Status(code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase)
            return TransportResponse(
                response: HTTPResponse(status: status, headerFields: fields),
                body: Data(collected.readableBytesView))
        } catch let error as HTTPClientError {
            throw Self.translate(error, url: url, timeout: timeout, limit: maximumBodySize)
        } catch is NIOTooManyBytesError {
            throw TransportError.bodyTooLarge(url: url, limit: maximumBodySize)
        } catch let error as TransportError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw TransportError.connectionFailed(url: url, detail: String(describing: error))
        }
    }

    public func shutdown() async throws {
        try await client.shutdown()
    }

    private static func translate(_ error: HTTPClientError, url: String, timeout: Duration, limit: Int) -> TransportError {
        let timeouts: [HTTPClientError] = [.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout]
        if timeouts.contains(error) { return .timedOut(url: url, after: timeout) }
        let connection: [HTTPClientError] = [.remoteConnectionClosed, .alreadyShutdown, .cancelled]
        if connection.contains(error) { return .connectionFailed(url: url, detail: String(describing: error)) }
        if [HTTPClientError.invalidURL, .emptyHost, .emptyScheme].contains(error) {
            return .invalidRequest("\(url): \(error)")
        }
        return .other(url: url, detail: String(describing: error))
    }
}
