import Foundation
import HTTPCaching
import HTTPTypes
import Synchronization

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Routes `URLSession` requests through a ``CachingClient``, so code that already uses
/// URLSession gets real HTTP caching on Linux by adding one line to its configuration:
///
/// ```swift
/// CachingURLProtocol.register(client)
/// let configuration = URLSessionConfiguration.ephemeral
/// configuration.protocolClasses = [CachingURLProtocol.self]
/// let session = URLSession(configuration: configuration)
/// ```
///
/// `URLRequest.cachePolicy` maps to the ``CachePolicy`` case of the same name, and
/// `URLRequest.timeoutInterval` bounds the whole request (the task fails with
/// `URLError(.timedOut)`; the client's own ``CachingClientConfiguration/requestTimeout`` still
/// bounds the fetch). Responses carry `X-CacheScope-Outcome` (e.g. `hit; max-age=60`) so the
/// app can see what happened. URLSession's own `URLCache` is bypassed (the client is the cache).
public final class CachingURLProtocol: URLProtocol {
    // URLSession drives an instance from its own queue; the only mutable state, `task`, is
    // guarded by `taskLock`.
    private let taskLock = Mutex<Task<Void, Never>?>(nil)

    private static let registered = Mutex<CachingClient?>(nil)

    /// Makes `client` the cache every `CachingURLProtocol` instance uses.
    public static func register(_ client: CachingClient) {
        registered.withLock { $0 = client }
    }

    /// Stops routing requests (they fail with `URLError(.resourceUnavailable)`).
    public static func unregister() {
        registered.withLock { $0 = nil }
    }

    /// The outcome header added to every response.
    public static let outcomeHeader = "X-CacheScope-Outcome"

    override public class func canInit(with request: URLRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    override public class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override public func startLoading() {
        let request = self.request
        guard let cachingClient = Self.registered.withLock({ $0 }) else {
            client?.urlProtocol(self, didFailWithError: URLError(.resourceUnavailable))
            return
        }
        guard let httpRequest = Self.httpRequest(from: request) else {
            client?.urlProtocol(self, didFailWithError: URLError(.badURL))
            return
        }
        let policy = Self.policy(for: request.cachePolicy)
        let body: Data?
        switch Self.body(of: request, uploading: self.task is URLSessionUploadTask) {
        case .success(let read): body = read
        case .failure(let error):
            client?.urlProtocol(self, didFailWithError: error)
            return
        }
        let reference = ProtocolReference(instance: self)
        guard let url = request.url else { return }  // checked by `httpRequest(from:)` above
        let timeout = Self.timeout(of: request, within: cachingClient.configuration.requestTimeout)
        let task = Task {
            await CachingURLProtocol.load(
                reference, through: cachingClient, httpRequest, body: body, policy: policy, url: url, timeout: timeout)
        }
        taskLock.withLock { $0 = task }
    }

    override public func stopLoading() {
        taskLock.withLock { $0?.cancel() }
    }

    private static func load(
        _ reference: ProtocolReference, through cachingClient: CachingClient, _ httpRequest: HTTPRequest,
        body: Data?, policy: CachePolicy, url: URL, timeout: Duration?
    ) async {
        let instance = reference.instance
        do {
            let result = try await within(timeout) { try await cachingClient.data(for: httpRequest, body: body, policy: policy) }
            guard !Task.isCancelled else { return }
            // After redirects, the URL that answered (as URLSession reports it).
            let response = urlResponse(result, url: result.redirectedURL.flatMap { URL(string: $0) } ?? url)
            instance.client?.urlProtocol(instance, didReceive: response, cacheStoragePolicy: .notAllowed)
            if !result.body.isEmpty { instance.client?.urlProtocol(instance, didLoad: result.body) }
            instance.client?.urlProtocolDidFinishLoading(instance)
        } catch {
            guard !Task.isCancelled else { return }
            instance.client?.urlProtocol(instance, didFailWithError: urlError(for: error))
        }
    }

    /// How long the request may take: its `timeoutInterval` (60 s unless the app set one);
    /// `nil` when that is not a positive, finite number of seconds, or not shorter than the
    /// client's own `requestTimeout`, which then ends the request first (no race to set up: the
    /// default 60 s against the client's 30 s costs a request nothing).
    static func timeout(of request: URLRequest, within clientTimeout: Duration) -> Duration? {
        let seconds = request.timeoutInterval
        guard seconds.isFinite, seconds > 0 else { return nil }
        let timeout = Duration.milliseconds(Int64(min(seconds, 1e9) * 1000))
        return timeout < clientTimeout ? timeout : nil
    }

    /// `load()`'s answer, or `URLError(.timedOut)` once `timeout` has passed without one (the
    /// request is then cancelled: a fetch other requests wait for goes on for them).
    static func within(
        _ timeout: Duration?, _ load: @escaping @Sendable () async throws -> ClientResponse
    ) async throws -> ClientResponse {
        guard let timeout else { return try await load() }
        return try await withThrowingTaskGroup(of: ClientResponse?.self) { group in
            group.addTask { try await load() }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let response = first else {
                throw URLError(.timedOut, userInfo: [
                    NSLocalizedDescriptionKey: "no response within the request's timeoutInterval (\(timeout))"
                ])
            }
            return response
        }
    }

    /// Carries the protocol instance into the loading task. URLProtocol is not Sendable, but
    /// URLSession expects exactly this: the instance reports to its `client` from whichever
    /// thread finishes the work, once, and `stopLoading` only cancels the task.
    private struct ProtocolReference: @unchecked Sendable {
        let instance: CachingURLProtocol
    }

    // MARK: Conversions

    /// The request's body: `httpBody`, or what `httpBodyStream` holds, read whole. An upload
    /// task's own body (`upload(for:from:)`, `uploadTask(with:fromFile:)`) is not handed to a
    /// custom protocol on Linux: rather than send the request without it, the task fails,
    /// saying how to send it.
    static func body(of request: URLRequest, uploading: Bool) -> Result<Data?, URLError> {
        if let data = request.httpBody { return .success(data) }
        if let stream = request.httpBodyStream { return read(stream).map { $0 } }
        guard !uploading else {
            return .failure(URLError(.requestBodyStreamExhausted, userInfo: [
                NSLocalizedDescriptionKey:
                    "CachingURLProtocol cannot read an upload task's body: set the request's httpBody or httpBodyStream and use a data task"
            ]))
        }
        return .success(nil)
    }

    /// Everything `stream` gives until its end.
    private static func read(_ stream: InputStream) -> Result<Data, URLError> {
        stream.open()
        defer { stream.close() }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBufferPointer { stream.read($0.baseAddress!, maxLength: $0.count) }
            if count == 0 { return .success(data) }
            guard count > 0 else {
                let reason = stream.streamError.map { "\($0)" } ?? "the stream failed"
                return .failure(URLError(.requestBodyStreamExhausted, userInfo: [
                    NSLocalizedDescriptionKey: "cannot read the request's httpBodyStream: \(reason)"
                ]))
            }
            data.append(contentsOf: chunk[0..<count])
        }
    }

    static func policy(for policy: URLRequest.CachePolicy) -> CachePolicy {
        switch policy {
        case .reloadIgnoringLocalCacheData: return .reloadIgnoringLocalCacheData
        case .reloadIgnoringLocalAndRemoteCacheData: return .reloadIgnoringLocalAndRemoteCacheData
        case .returnCacheDataElseLoad: return .returnCacheDataElseLoad
        case .returnCacheDataDontLoad: return .returnCacheDataDontLoad
        case .reloadRevalidatingCacheData: return .reloadRevalidatingCacheData
        default: return .useProtocolCachePolicy
        }
    }

    static func httpRequest(from request: URLRequest) -> HTTPRequest? {
        guard let url = request.url?.absoluteString else { return nil }
        var headers = HTTPFields()
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            if let fieldName = HTTPField.Name(name) { headers.append(HTTPField(name: fieldName, value: value)) }
        }
        let method = HTTPRequest.Method(request.httpMethod ?? "GET") ?? .get
        return CachingClient.request(url: url, method: method, headers: headers)
    }

    static func urlResponse(_ result: ClientResponse, url: URL) -> HTTPURLResponse {
        var fields: [String: String] = [:]
        for field in result.response.headerFields {
            let name = field.name.rawName
            fields[name] = fields[name].map { "\($0), \(field.value)" } ?? field.value
        }
        fields[outcomeHeader] = "\(result.outcome); \(result.reason)"
        return HTTPURLResponse(url: url, statusCode: result.response.status.code, httpVersion: "HTTP/1.1", headerFields: fields)!
    }

    static func urlError(for error: any Error) -> URLError {
        switch error {
        case CachingClientError.notCached: return URLError(.resourceUnavailable)
        case CachingClientError.invalidURL: return URLError(.badURL)
        case CachingClientError.tooManyRedirects: return URLError(.httpTooManyRedirects)
        case CachingClientError.transport(.timedOut), CachingClientError.transport(.requestBodyStalled): return URLError(.timedOut)
        case CachingClientError.transport(.connectionFailed): return URLError(.cannotConnectToHost)
        case CachingClientError.transport(.connectionClosed): return URLError(.networkConnectionLost)
        case let error as URLError: return error
        case is CancellationError: return URLError(.cancelled)
        default: return URLError(.unknown)
        }
    }
}
