import Synchronization

/// Lets concurrent requests for the same key share one origin fetch.
///
/// The first caller of ``run(key:requestID:fetch:)`` for a key becomes the leader: its fetch
/// runs in a task of its own, so cancelling any one waiter — the leader included — does not
/// cancel the others. The fetch is cancelled only when every waiter has gone.
///
/// A `Mutex`-guarded table rather than an actor: joining a flight is a short synchronous
/// critical section, and the cancellation handler (which is synchronous) must reach it.
final class RequestCoalescer<Value: Sendable>: Sendable {
    /// What a waiter receives: the shared value and the request ID of the leader.
    struct Shared: Sendable {
        let value: Value
        let leaderID: UInt64
    }

    private struct Flight {
        let leaderID: UInt64
        var waiters: [UInt64: CheckedContinuation<Shared, any Error>] = [:]
        var task: Task<Void, Never>?
    }

    private let flights = Mutex<[String: Flight]>([:])

    /// Whether a fetch for `key` is under way.
    func isInFlight(_ key: String) -> Bool { flights.withLock { $0[key] != nil } }

    /// Runs `fetch` unless one is already under way for `key`, and returns its value.
    func run(
        key: String, requestID: UInt64, fetch: @escaping @Sendable () async throws -> Value
    ) async throws -> Shared {
        try Task.checkCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Shared, any Error>) in
                let startsFlight = flights.withLock { flights -> Bool in
                    if flights[key] != nil {
                        flights[key]!.waiters[requestID] = continuation
                        return false
                    }
                    flights[key] = Flight(leaderID: requestID, waiters: [requestID: continuation])
                    return true
                }
                guard startsFlight else { return }
                let task = Task { [self] in
                    let result: Result<Value, any Error>
                    do { result = .success(try await fetch()) } catch { result = .failure(error) }
                    let waiters = self.flights.withLock { $0.removeValue(forKey: key)?.waiters ?? [:] }
                    for waiter in waiters.values {
                        waiter.resume(with: result.map { Shared(value: $0, leaderID: requestID) })
                    }
                }
                flights.withLock { flights in
                    if flights[key]?.leaderID == requestID { flights[key]!.task = task }
                }
            }
        } onCancel: {
            let (continuation, orphanedTask) = flights.withLock { flights -> (CheckedContinuation<Shared, any Error>?, Task<Void, Never>?) in
                guard var flight = flights[key], let continuation = flight.waiters.removeValue(forKey: requestID) else {
                    return (nil, nil)
                }
                if flight.waiters.isEmpty {
                    flights[key] = nil
                    return (continuation, flight.task)
                }
                flights[key] = flight
                return (continuation, nil)
            }
            orphanedTask?.cancel()
            continuation?.resume(throwing: CancellationError())
        }
    }
}
