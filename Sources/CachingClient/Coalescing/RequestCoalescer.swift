import Synchronization

/// Lets concurrent requests for the same key share one origin fetch.
///
/// The first caller of ``run(key:requestID:fetch:)`` for a key becomes the leader and runs
/// the fetch itself, in the task that called; later callers wait for its value. The fetch is
/// not moved to a task of its own: that hand-off would cost every origin request two thread
/// switches, and in the caller's task the fetch keeps its priority and task-local values (a
/// tracing context, say).
///
/// Cancellation: a cancelled follower stops waiting at once and nobody else notices. When
/// the leader is cancelled its fetch ends with it; the followers, who were not cancelled,
/// are not failed — they start over, and one of them leads a new fetch. That costs one more
/// origin request in that rare case, instead of a task hop on every request. (So does a
/// request whose lookup missed just before a flight for its key ended: it finds no flight
/// and fetches again.)
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
    }

    /// Tells a follower to start over: its leader was cancelled, or the flight ended before
    /// it could join.
    private struct StartOver: Error {}

    private let flights = Mutex<[String: Flight]>([:])

    /// How many requests are waiting for another's fetch, over all keys. A test seam: a test
    /// lets its leader's response go once the followers it started are waiting.
    var waiterCount: Int { flights.withLock { $0.values.reduce(0) { $0 + $1.waiters.count } } }

    /// Runs `fetch` unless one is already under way for `key`, and returns its value.
    func run(key: String, requestID: UInt64, fetch: () async throws -> Value) async throws -> Shared {
        while true {
            try Task.checkCancellation()
            let leads = flights.withLock { flights -> Bool in
                guard flights[key] == nil else { return false }
                flights[key] = Flight(leaderID: requestID)
                return true
            }
            if leads { return try await lead(key: key, requestID: requestID, fetch: fetch) }
            do {
                return try await follow(key: key, requestID: requestID)
            } catch is StartOver {
                continue
            }
        }
    }

    private func lead(key: String, requestID: UInt64, fetch: () async throws -> Value) async throws -> Shared {
        let result: Result<Value, any Error>
        do { result = .success(try await fetch()) } catch { result = .failure(error) }
        let waiters = flights.withLock { $0.removeValue(forKey: key)?.waiters ?? [:] }
        let shared = result.map { Shared(value: $0, leaderID: requestID) }
        // A fetch that failed because its leader was cancelled says nothing about the origin.
        let forFollowers = Task.isCancelled && (try? result.get()) == nil ? .failure(StartOver()) : shared
        for waiter in waiters.values { waiter.resume(with: forFollowers) }
        return try shared.get()
    }

    private func follow(key: String, requestID: UInt64) async throws -> Shared {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Shared, any Error>) in
                let joined = flights.withLock { flights -> Bool in
                    guard flights[key] != nil else { return false }
                    flights[key]!.waiters[requestID] = continuation
                    return true
                }
                // The flight ended between looking and joining: start over.
                guard joined else { return continuation.resume(throwing: StartOver()) }
                // Cancelled before joining: the handler found nothing to remove, so do it here.
                if Task.isCancelled, let mine = flights.withLock({ $0[key]?.waiters.removeValue(forKey: requestID) }) {
                    mine.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let continuation = flights.withLock { $0[key]?.waiters.removeValue(forKey: requestID) }
            continuation?.resume(throwing: CancellationError())
        }
    }
}
