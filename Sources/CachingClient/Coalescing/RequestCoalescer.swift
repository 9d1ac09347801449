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
/// origin request in that rare case, instead of a task hop on every request.
///
/// Lookups and flights: a request looks in the store before it comes here, and a leader
/// stores its answer before it leaves. A request whose lookup ran before a leader's store but
/// that arrives after the leader left would find no flight and fetch again. So a request
/// takes a ``Ticket`` (how many flights have ended) before its lookup and brings it: when no
/// flight is under way for its key but one has ended since its ticket, ``run(key:requestID:lookedUpAt:fetch:)``
/// returns `nil` instead of leading, and the request looks again — whatever the flight stored
/// is in the store by then. One count for all keys keeps the ticket to one atomic load on
/// every request, hits included; another key's flight ending in that window costs one more
/// lookup, never a fetch.
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

    /// How many flights have ended, as seen before a lookup.
    struct Ticket: Sendable {
        fileprivate let endedFlights: UInt64
    }

    /// What a request does on arriving: lead a flight, follow one, or look in the store again.
    private enum Role { case lead, follow, lookAgain }

    private let flights = Mutex<[String: Flight]>([:])
    /// Flights ended so far; changed only under `flights`' lock, as a leader leaves.
    private let endedFlights = Atomic<UInt64>(0)

    /// A ticket for a request about to look in the store: taken before the lookup, brought to
    /// ``run(key:requestID:lookedUpAt:fetch:)``.
    func ticket() -> Ticket {
        Ticket(endedFlights: endedFlights.load(ordering: .acquiring))
    }

    /// How many requests are waiting for another's fetch, over all keys. A test seam: a test
    /// lets its leader's response go once the followers it started are waiting.
    var waiterCount: Int { flights.withLock { $0.values.reduce(0) { $0 + $1.waiters.count } } }

    /// Runs `fetch` unless one is already under way for `key`, and returns its value; `nil`
    /// when the caller must look in the store again first: no flight is under way for `key`,
    /// but one ended after `ticket` was taken. Without a ticket (a refresh or a background
    /// revalidation, which must reach the origin), it leads when nobody else does.
    func run(key: String, requestID: UInt64, lookedUpAt ticket: Ticket?, fetch: () async throws -> Value) async throws -> Shared? {
        while true {
            try Task.checkCancellation()
            let role = flights.withLock { flights -> Role in
                guard flights[key] == nil else { return .follow }
                if let ticket, ticket.endedFlights != endedFlights.load(ordering: .relaxed) { return .lookAgain }
                flights[key] = Flight(leaderID: requestID)
                return .lead
            }
            switch role {
            case .lead: return try await lead(key: key, requestID: requestID, fetch: fetch)
            case .lookAgain: return nil
            case .follow:
                do {
                    return try await follow(key: key, requestID: requestID)
                } catch is StartOver {
                    continue
                }
            }
        }
    }

    private func lead(key: String, requestID: UInt64, fetch: () async throws -> Value) async throws -> Shared {
        let result: Result<Value, any Error>
        do { result = .success(try await fetch()) } catch { result = .failure(error) }
        // The fetch stored its answer (if it may be stored); from here a lookup finds it, and a
        // request that looked before now is sent to look again (see `Ticket`).
        let waiters = flights.withLock { flights in
            endedFlights.add(1, ordering: .releasing)
            return flights.removeValue(forKey: key)?.waiters ?? [:]
        }
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
