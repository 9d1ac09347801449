import CacheEvents
import SessionLog
import NIOCore
import Synchronization

/// What an ``AttachClient`` and its channel handler share: the event stream (bounded, with
/// drop counting like the bus's lossy subscriptions) and the commands waiting for a result.
///
/// Concurrency: a `final class` whose only mutable state sits in one `Mutex`, because the
/// handler writes from the event loop and `send`/`close` run on any task. Continuations are
/// resumed after the lock is released.
final class ClientSession: Sendable {
    let path: String
    private let state: Mutex<State>

    private struct State {
        var continuation: AsyncThrowingStream<CacheEvent, any Error>.Continuation
        var pendingDrops = 0
        var skipped = 0
        var nextID = 0
        var waiting: [Int: Waiter] = [:]
        var ended = false
        /// Why it ended: the peer's going away, or `nil` when this side closed it.
        var endedBecause: AttachError?
    }

    private struct Waiter {
        var continuation: CheckedContinuation<CommandResult, any Error>
        var timer: Scheduled<Void>?
    }

    /// A session and the event stream it feeds; at most `bufferSize` events wait unread.
    static func make(path: String, bufferSize: Int) -> (ClientSession, AsyncThrowingStream<CacheEvent, any Error>) {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: CacheEvent.self, throwing: (any Error).self, bufferingPolicy: .bufferingOldest(max(1, bufferSize))
        )
        return (ClientSession(path: path, continuation: continuation), stream)
    }

    private init(path: String, continuation: AsyncThrowingStream<CacheEvent, any Error>.Continuation) {
        self.path = path
        self.state = Mutex(State(continuation: continuation))
    }

    // MARK: - Events

    /// Hands an event to the stream; when the consumer lags and the buffer is full, the event
    /// is counted and a `dropped` event is delivered before the next one that fits.
    func deliver(_ event: CacheEvent) {
        state.withLock { state in
            if state.pendingDrops > 0 {
                let marker = CacheEvent(seq: event.seq - 1, time: event.time, kind: .dropped(Dropped(count: state.pendingDrops)))
                guard case .enqueued = state.continuation.yield(marker) else {
                    state.pendingDrops += 1
                    return
                }
                state.pendingDrops = 0
            }
            if case .dropped = state.continuation.yield(event) { state.pendingDrops += 1 }
        }
    }

    /// Counts a line that was skipped (an event kind or line type this version does not know).
    func noteSkipped() { state.withLock { $0.skipped += 1 } }

    /// Lines skipped so far.
    var skipped: Int { state.withLock { $0.skipped } }

    /// Called when the consumer stops iterating the stream.
    func onEventsTerminated(_ action: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.continuation.onTermination = { termination in
                if case .cancelled = termination { action() }
            }
        }
    }

    // MARK: - Commands

    /// A new command ID.
    func makeID() -> Int {
        state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
    }

    /// Registers a command waiting for its result; when the session has ended, resumes it at
    /// once with why: the peer's going away (``AttachError/closedByPeer(path:)``, …), or
    /// ``AttachError/closed(path:)`` when this side closed it.
    func register(_ id: Int, _ continuation: CheckedContinuation<CommandResult, any Error>) -> Bool {
        let refusal = state.withLock { state -> AttachError? in
            guard !state.ended else { return state.endedBecause ?? .closed(path: path) }
            state.waiting[id] = Waiter(continuation: continuation, timer: nil)
            return nil
        }
        if let refusal { continuation.resume(throwing: refusal) }
        return refusal == nil
    }

    /// Attaches the timer that fails the command if no result comes.
    func setTimer(_ id: Int, _ timer: Scheduled<Void>) {
        let registered = state.withLock { state in
            guard state.waiting[id] != nil else { return false }
            state.waiting[id]?.timer = timer
            return true
        }
        if !registered { timer.cancel() }
    }

    /// Delivers a result line to the command that waits for it.
    func complete(_ reply: CommandReply) {
        guard let id = reply.id, let waiter = take(id) else { return }
        waiter.timer?.cancel()
        waiter.continuation.resume(returning: reply.result)
    }

    /// Fails one waiting command.
    func fail(_ id: Int, with error: any Error) {
        guard let waiter = take(id) else { return }
        waiter.timer?.cancel()
        waiter.continuation.resume(throwing: error)
    }

    private func take(_ id: Int) -> Waiter? {
        state.withLock { $0.waiting.removeValue(forKey: id) }
    }

    // MARK: - The end

    /// Ends the session once: waiting commands fail, and the event stream finishes — throwing
    /// `error` when the peer went away, normally when the dashboard closed it.
    func end(with error: AttachError?) {
        let (waiters, continuation) = state.withLock { state -> ([Waiter], AsyncThrowingStream<CacheEvent, any Error>.Continuation?) in
            guard !state.ended else { return ([], nil) }
            state.ended = true
            state.endedBecause = error
            defer { state.waiting.removeAll() }
            return (Array(state.waiting.values), state.continuation)
        }
        guard let continuation else { return }
        let failure = error ?? AttachError.closed(path: path)
        for waiter in waiters {
            waiter.timer?.cancel()
            waiter.continuation.resume(throwing: failure)
        }
        continuation.finish(throwing: error)
    }
}
