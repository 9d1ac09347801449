import AsyncHTTPClient
import NIOCore
import Synchronization

/// Times a request whose body is streamed: the origin's time (``CachingClientConfiguration/requestTimeout``)
/// counts from when the body has been sent, and while it is being sent, its sender may take
/// at most as long for each part the transport asks for.
///
/// AsyncHTTPClient's deadline counts from the request's start, body included: an upload that
/// took longer than the timeout to send — from a slow client through the proxy — ended in a
/// 504 blaming an origin that was waiting for it. A sender that stops is told apart from an
/// origin that does not answer (``TransportError/requestBodyStalled(url:after:)``) by where the
/// time went: waiting for the sender's next part is the sender's; the transport not asking for
/// one (an origin that stops reading, a connection still being made) is the origin's.
final class UploadWatch: Sendable {
    private struct State {
        /// The last thing that happened: the start, a part taken, or the transport asking.
        var lastActivity = ContinuousClock.now
        /// Since when the transport has been waiting for the sender's next part.
        var waitingSince: ContinuousClock.Instant?
        var sent: ContinuousClock.Instant?
    }

    /// Whose time ran out.
    enum Expiry {
        /// The sender's: its next part did not come.
        case senderStalled
        /// The origin's: no answer after the body, or it stopped taking the body.
        case originTooSlow
    }

    private let state = Mutex(State())

    /// `body` with each part noted as it is handed to the transport.
    func watching(_ body: BodyStream) -> BodyStream {
        BodyStream(parts: WatchedParts(body: body, watch: self))
    }

    /// Returns once `timeout` has run out (for whom), or `nil` when cancelled.
    func expiry(after timeout: Duration) async -> Expiry? {
        while !Task.isCancelled {
            let (deadline, whose) = state.withLock { state -> (ContinuousClock.Instant, Expiry) in
                if let sent = state.sent { return (sent + timeout, .originTooSlow) }
                if let waiting = state.waitingSince { return (waiting + timeout, .senderStalled) }
                return (state.lastActivity + timeout, .originTooSlow)
            }
            if ContinuousClock.now >= deadline { return whose }
            try? await Task.sleep(until: deadline, clock: .continuous)
        }
        return nil
    }

    /// `execute` (the exchange, with no deadline of its own), or the timeout's error: the
    /// origin's (`timedOut`) or the sender's (`requestBodyStalled`), as ``expiry(after:)`` finds.
    func race(url: String, timeout: Duration, _ execute: @escaping @Sendable () async throws -> HTTPClientResponse) async throws -> HTTPClientResponse {
        enum Finish: Sendable {
            case answered(HTTPClientResponse)
            case expired(Expiry?)
        }
        return try await withThrowingTaskGroup(of: Finish.self) { group in
            group.addTask { .answered(try await execute()) }
            group.addTask { .expired(await self.expiry(after: timeout)) }
            defer { group.cancelAll() }
            switch try await group.next() {
            case .answered(let response): return response
            case .expired(.senderStalled): throw TransportError.requestBodyStalled(url: url, after: timeout)
            case .expired(.originTooSlow): throw TransportError.timedOut(url: url, after: timeout)
            case .expired(nil), nil: throw CancellationError()
            }
        }
    }

    /// The transport asks for the next part.
    fileprivate func asking() {
        state.withLock { state in
            state.waitingSince = .now
            state.lastActivity = .now
        }
    }

    /// The sender gave a part (`part`), or the body ended.
    fileprivate func given(part: Bool) {
        state.withLock { state in
            state.waitingSince = nil
            state.lastActivity = .now
            if !part { state.sent = .now }
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
            watch.asking()
            let part = try await parts.next()
            watch.given(part: part != nil)
            return part
        }
    }
}
