import ConnectionErrors
import NIOCore
import PostgresNIO
import Synchronization

/// Runs an operation with a time limit that holds even when the operation ignores
/// cancellation: a query in flight on a server that stopped answering is abandoned (its task
/// cancelled, left to finish on its own), never waited for. A task group would wait for it.
enum QueryDeadline {
    /// Why an operation gave up.
    struct TimedOut: Error, CustomStringConvertible {
        let limit: Duration
        var description: String {
            let (seconds, attoseconds) = limit.components
            return "no answer within \(ConnectionFailureText.seconds(nanoseconds: seconds * 1_000_000_000 + attoseconds / 1_000_000_000))"
        }
    }

    /// `operation`'s result, or ``TimedOut`` after `limit`. The timer is a task scheduled on
    /// one of the database client's event loops: cheaper than a Swift task asleep for the
    /// limit and cancelled after every query (a shared-tier hit runs one).
    @discardableResult
    static func run<T: Sendable>(within limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let race = Race<T>()
        let eventLoop = PostgresClient.defaultEventLoopGroup.any()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.start(continuation)
                let work = Task {
                    do {
                        race.finish(.success(try await operation()))
                    } catch {
                        race.finish(.failure(error))
                    }
                }
                let timer = eventLoop.scheduleTask(in: TimeAmount(limit)) {
                    race.finish(.failure(TimedOut(limit: limit)))
                }
                // Whoever wins, the loser stops: an abandoned query is cancelled, the timer too.
                race.onFinish {
                    timer.cancel()
                    work.cancel()
                }
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }

    /// The first of the operation, the timer and cancellation to finish resumes the waiter.
    private final class Race<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T, any Error>?
            var result: Result<T, any Error>?
            var cleanup: (@Sendable () -> Void)?
        }

        private let state = Mutex(State())

        func start(_ continuation: CheckedContinuation<T, any Error>) {
            let early = state.withLock { state -> Result<T, any Error>? in
                if let result = state.result { return result }
                state.continuation = continuation
                return nil
            }
            if let early { continuation.resume(with: early) }
        }

        func onFinish(_ cleanup: @escaping @Sendable () -> Void) {
            let finished = state.withLock { state -> Bool in
                if state.result != nil { return true }
                state.cleanup = cleanup
                return false
            }
            if finished { cleanup() }
        }

        /// Whether this call decided the race.
        @discardableResult
        func finish(_ result: Result<T, any Error>) -> Bool {
            let won = state.withLock { state -> (CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?)? in
                guard state.result == nil else { return nil }
                state.result = result
                defer { state.continuation = nil; state.cleanup = nil }
                return (state.continuation, state.cleanup)
            }
            guard let won else { return false }
            won.0?.resume(with: result)
            won.1?()
            return true
        }
    }
}
