import AsyncHTTPClient
import NIOCore
import Synchronization

/// Times a request whose body is streamed: the origin's time (``CachingClientConfiguration/requestTimeout``)
/// counts from when the body has been sent, and while it is being sent, each part may take at
/// most as long after the one before.
///
/// AsyncHTTPClient's deadline counts from the request's start, body included: an upload that
/// took longer than the timeout to send — from a slow client through the proxy — ended in a
/// 504 blaming an origin that was waiting for it. A client that stops sending is told apart
/// from an origin that does not answer (``TransportError/requestBodyStalled(url:after:)``).
final class UploadWatch: Sendable {
    private struct State {
        var lastPart = ContinuousClock.now
        var sent: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    /// `body` with each part noted as it is handed to the transport.
    func watching(_ body: BodyStream) -> BodyStream {
        BodyStream(parts: WatchedParts(body: body, watch: self))
    }

    /// Whether the whole body was handed over.
    var bodySent: Bool { state.withLock { $0.sent != nil } }

    /// Returns once `timeout` has passed since the last part (or the body's end) without
    /// another (or without a response: the caller's race decides), or when cancelled.
    func expiry(after timeout: Duration) async {
        while !Task.isCancelled {
            let deadline = state.withLock { ($0.sent ?? $0.lastPart) + timeout }
            if ContinuousClock.now >= deadline { return }
            try? await Task.sleep(until: deadline, clock: .continuous)
        }
    }

    /// `execute` (the exchange, with no deadline of its own), or the timeout's error: the
    /// origin's (`timedOut`) once the body was sent, the client's (`requestBodyStalled`) before.
    func race(url: String, timeout: Duration, _ execute: @escaping @Sendable () async throws -> HTTPClientResponse) async throws -> HTTPClientResponse {
        try await withThrowingTaskGroup(of: HTTPClientResponse?.self) { group in
            group.addTask { try await execute() }
            group.addTask {
                await self.expiry(after: timeout)
                return nil
            }
            defer { group.cancelAll() }
            if let first = try await group.next(), let response = first { return response }
            try Task.checkCancellation()
            throw bodySent ? TransportError.timedOut(url: url, after: timeout) : .requestBodyStalled(url: url, after: timeout)
        }
    }

    fileprivate func noted(part: Bool) {
        state.withLock { state in
            if part { state.lastPart = .now } else { state.sent = .now }
        }
    }
}

/// A request body's parts, each noted by an ``UploadWatch`` as the transport takes it.
private struct WatchedParts: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let body: BodyStream
    let watch: UploadWatch

    func makeAsyncIterator() -> Iterator { Iterator(parts: body.makeAsyncIterator(), watch: watch) }

    struct Iterator: AsyncIteratorProtocol {
        var parts: BodyStream.Iterator
        let watch: UploadWatch

        mutating func next() async throws -> ByteBuffer? {
            let part = try await parts.next()
            watch.noted(part: part != nil)
            return part
        }
    }
}
