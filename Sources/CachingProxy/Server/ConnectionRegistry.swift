import NIOCore
import Synchronization

/// The proxy's open connections and requests in flight: enforces the connection limit, and lets
/// ``CachingProxy/stop()`` drain — stop accepting, let requests in flight finish, then close.
///
/// A `final class` with a `Mutex`: channel initializers and handlers on NIO's event-loop threads
/// call it synchronously, and `stop()` reads it from a task.
final class ConnectionRegistry: Sendable {
    private struct State {
        var connections: [ObjectIdentifier: any Channel] = [:]
        var requests: [UInt64: Task<Void, Never>?] = [:]
        var nextRequestID: UInt64 = 0
        var isDraining = false
    }

    let maximumConnections: Int
    private let state = Mutex(State())

    init(maximumConnections: Int) {
        self.maximumConnections = maximumConnections
    }

    // MARK: Connections

    /// Counts `channel` in, unless the limit is reached or the proxy is draining.
    /// - Returns: whether the connection may be served.
    func open(_ channel: any Channel) -> Bool {
        state.withLock { state in
            guard !state.isDraining, state.connections.count < maximumConnections else { return false }
            state.connections[ObjectIdentifier(channel)] = channel
            return true
        }
    }

    /// Counts `channel` out (it closed).
    func closed(_ channel: any Channel) {
        _ = state.withLock { $0.connections.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// How many client connections are open.
    var connectionCount: Int { state.withLock { $0.connections.count } }

    // MARK: Requests in flight

    /// Notes a request going to the cache; pass the ID to ``attach(_:to:)`` and ``ended(_:)``.
    func began() -> UInt64 {
        state.withLock { state in
            state.nextRequestID += 1
            state.requests[state.nextRequestID] = .some(nil)
            return state.nextRequestID
        }
    }

    /// Remembers the task serving request `id`, so that a stop that runs out of patience can
    /// cancel it. Does nothing when the request already ended.
    func attach(_ task: Task<Void, Never>, to id: UInt64) {
        state.withLock { state in
            if state.requests[id] != nil { state.requests[id] = task }
        }
    }

    /// Notes that request `id` was answered (or its connection went away).
    func ended(_ id: UInt64) {
        _ = state.withLock { $0.requests.removeValue(forKey: id) }
    }

    /// How many requests are between their head and their answer.
    var requestsInFlight: Int { state.withLock { $0.requests.count } }

    // MARK: Draining

    /// Whether the proxy is stopping: responses then close their connections.
    var isDraining: Bool { state.withLock { $0.isDraining } }

    /// Refuses new connections from now on and returns the open ones.
    func startDraining() -> [any Channel] {
        state.withLock { state in
            state.isDraining = true
            return Array(state.connections.values)
        }
    }

    /// Cancels the tasks of every request still in flight.
    func cancelRequests() {
        let tasks = state.withLock { $0.requests.values.compactMap { $0 } }
        for task in tasks { task.cancel() }
    }
}

/// Sent down a connection's pipeline when the proxy starts draining: an idle connection closes
/// at once, a busy one after its current response.
struct DrainEvent: Sendable {}
