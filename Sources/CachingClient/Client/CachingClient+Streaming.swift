import CacheStore
import Foundation
public import HTTPCaching
public import HTTPTypes
import NIOCore

extension CachingClient {
    /// Sends a request through the cache like ``data(for:body:policy:)``, with its body streamed
    /// to the origin and the response's body streamed back when it is too large to store.
    ///
    /// What the store answers, and an origin response whose body fits the store's per-entry
    /// limit (``ResponseStore/maximumBodySize(for:response:)``), come back complete, exactly
    /// as from ``data(for:body:policy:)`` (collected while it arrives, stored at its end when
    /// the rules allow, shared with coalesced requests). A longer body — declared by its
    /// `Content-Length`, or found longer while collecting — comes back as a
    /// ``StreamedClientResponse/Body/streaming(_:)`` of the parts still to read, and is not
    /// stored; the request's reason (and so `Cache-Status`) says why. A body that fails or is
    /// abandoned part-way therefore never leaves a partial entry: only complete bodies are
    /// stored.
    ///
    /// Redirects are not followed, whatever the configuration says (a streamed request body
    /// cannot be sent twice); the 3xx is returned.
    ///
    /// - Parameters:
    ///   - request: an absolute request (scheme, authority and path set).
    ///   - body: the request body, read once as it is sent; `nil` for none.
    ///   - length: the body's length in bytes when known (sent as `Content-Length`; otherwise
    ///     chunked).
    ///   - policy: overrides the configuration's default policy for this request.
    /// - Throws: ``CachingClientError``, as ``data(for:body:policy:)``.
    public func stream(
        for request: HTTPRequest, body: BodyStream? = nil, length: Int? = nil, policy: CachePolicy? = nil
    ) async throws -> StreamedClientResponse {
        try await stream(for: request, body: body, length: length, policy: policy, shape: nil)
    }

    /// ``stream(for:body:length:policy:)`` for a caller that answers what is served in another
    /// form (a proxy: ``ServedShape``).
    package func stream(
        for request: HTTPRequest, body: BodyStream?, length: Int?, policy: CachePolicy?, shape: ServedShape?
    ) async throws -> StreamedClientResponse {
        guard !isShutDown else { throw CachingClientError.shutDown }
        let streaming = StreamingExchange(requestBody: body, requestLength: length)
        let result = try await singleRequest(request, body: nil, policy: policy ?? configuration.defaultPolicy, streaming: streaming, shape: shape)
        if let passed = streaming.passedThroughBody {
            return StreamedClientResponse(result: result, body: .streaming(passed.body))
        }
        return StreamedClientResponse(result: result, body: .complete(result.body))
    }

    // MARK: The origin exchange

    /// The origin's response to `outgoing`: through the transport's whole-body `send` for a
    /// request made with ``data(for:body:policy:)``; for one made with
    /// ``stream(for:body:length:policy:)``, streamed — its body collected up to what the store
    /// would keep for it, and past that handed to the caller uncollected (the result's body is
    /// then empty, and ``storeUnlessPassedThrough(_:_:key:requestTime:responseTime:run:)``
    /// stores nothing).
    func originResponse(_ outgoing: HTTPRequest, run: RequestRun, key: CacheKey?) async throws -> TransportResponse {
        guard let streaming = run.streaming, !run.background else {
            return try await transport.send(outgoing, body: run.body, timeout: configuration.requestTimeout)
        }
        // A body collected to be stored counts against the request timeout as a whole one does
        // (``AsyncHTTPClientTransport/send(_:body:timeout:)``): a dripping origin is given up.
        let timeout = configuration.requestTimeout
        var deadline = ContinuousClock.now + timeout
        let origin = try await transport.stream(
            outgoing, body: streaming.requestBody, length: streaming.requestLength, timeout: timeout)
        // After an upload (whose time `UploadWatch` kept apart), the body to collect gets the
        // whole timeout from the head's arrival.
        if streaming.requestBody != nil { deadline = ContinuousClock.now + timeout }
        let limit = key.map { store.maximumBodySize(for: $0, response: origin.response) } ?? 0
        // At most the memory tier's capacity (or one body of the largest size the store keeps)
        // is being collected at once, across requests; past it a body goes through uncollected.
        let capacity = max(configuration.store.memoryCapacity, limit)
        func passThrough(_ body: BodyStream, tooLarge: Bool) -> TransportResponse {
            streaming.passThrough(
                body,
                reason: tooLarge
                    ? "body larger than the store keeps (\(limit) bytes), streamed through"
                    : "streamed through: other bodies being collected to store hold \(collecting.bytesInUse) of the "
                        + "\(capacity) bytes allowed at once")
            return TransportResponse(response: origin.response, body: Data())
        }
        var taken = 0
        defer { collecting.give(taken) }
        let declared = origin.response.headerFields[.contentLength].flatMap { Int($0, radix: 10) }
        var collected = Data()
        if let declared {
            guard declared <= limit else { return passThrough(origin.body, tooLarge: true) }
            guard collecting.take(max(0, declared), within: capacity) else { return passThrough(origin.body, tooLarge: false) }
            taken = max(0, declared)
            collected.reserveCapacity(max(0, declared))
        }
        for try await part in origin.body {
            let tooLarge = part.readableBytes > limit - collected.count
            // A body longer than declared, or undeclared, takes its bytes as they come.
            let more = collected.count + part.readableBytes - taken
            if tooLarge || (more > 0 && !collecting.take(more, within: capacity)) {
                // What was read goes first, the rest as it comes.
                let prefix = collected.isEmpty ? [part] : [ByteBuffer(bytes: collected), part]
                return passThrough(BodyStream(prefix: prefix, parts: origin.body), tooLarge: tooLarge)
            }
            taken += max(0, more)
            guard ContinuousClock.now <= deadline else { throw TransportError.timedOut(url: Self.url(of: outgoing), after: timeout, bodyStarted: true) }
            part.withUnsafeReadableBytes { collected.append($0.assumingMemoryBound(to: UInt8.self)) }
        }
        return TransportResponse(response: origin.response, body: collected)
    }

    /// ``storeIfAllowed(_:_:key:requestTime:responseTime:)``, unless the response's body was
    /// passed through to the caller uncollected: then nothing is stored, and the reason says
    /// why — the rules' own when they would not store it anyway, the store's limit otherwise.
    func storeUnlessPassedThrough(
        _ request: HTTPRequest, _ origin: TransportResponse, key: CacheKey?, requestTime: Date, responseTime: Date, run: RequestRun
    ) async -> StoringResult {
        guard !run.background, let passed = run.streaming?.passedThroughBody else {
            return await storeIfAllowed(request, origin, key: key, requestTime: requestTime, responseTime: responseTime)
        }
        if case .notStorable(let reason) = rules.storability(request: request, response: origin.response, now: responseTime) {
            return StoringResult(result: .notStored(reason.description), stored: nil, freshness: nil)
        }
        return StoringResult(result: .notStored(passed.reason), stored: nil, freshness: nil)
    }
}
