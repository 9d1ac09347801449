import CacheAttach
public import CacheEvents
public import Dashboard
import Foundation
import HTTPCaching
import Synchronization

/// Several attached processes as one stream (`cachescope attach S1 S2 …`): connects to every
/// socket, tags each event with its instance's index (``CacheEvent/instance``) and merges them
/// into ``events``; sends a command to one instance; notices an instance that goes (its
/// connection drops) and reconnects it with backoff when its socket accepts again — a fresh
/// hello from a new pid is a new life of the same instance.
///
/// ```swift
/// let fleet = try await FleetAttach.connect(paths: ["/tmp/a.sock", "/tmp/b.sock"])
/// fleet.onChange { roster, notice in print(notice) }        // "web#2 (pid 42) is gone: …"
/// Task { _ = try await fleet.send(.purgeAll, to: 1) }
/// for await event in fleet.events { model.apply(event) }   // event.instance: 0 or 1
/// fleet.close()
/// ```
///
/// **Times and order.** Each process stamps events with seconds since *its* session started,
/// so the merged stream re-stamps them on one timeline: seconds since this fleet connected,
/// each life of an instance shifted by the difference at its first event (the order within an
/// instance is kept; events of different instances interleave as they arrive). `seq` is
/// renumbered 1, 2, 3 … over the merged stream.
///
/// Concurrency: a `final class` of constants; the instances, the clients and the numbering
/// sit behind one `Mutex`, taken once per event by the instance's reading task.
public final class FleetAttach: Sendable {
    /// The sockets, in instance order.
    public let paths: [String]
    /// Every instance's events, merged and tagged; finishes after ``close()``.
    public let events: AsyncStream<CacheEvent>

    private struct Instance {
        var status: InstanceStatus
        var client: AttachClient?
        /// Added to this life's event times to put them on the fleet's timeline.
        var offset: Double?
        /// Whether a hello has named it (else its name is the socket's file name).
        var named = false
    }

    private struct State {
        var instances: [Instance]
        var seq: UInt64 = 0
        var closed = false
        var onChange: (@Sendable (InstanceRoster, String) -> Void)?
        var roster: InstanceRoster { InstanceRoster(instances.map(\.status)) }
    }

    private let state: Mutex<State>
    private let continuation: AsyncStream<CacheEvent>.Continuation
    private let tasks = Mutex<[Task<Void, Never>]>([])
    private let started = ContinuousClock.now
    private let timeout: Duration
    private let retry: FleetRetry

    private init(paths: [String], timeout: Duration, retry: FleetRetry) {
        self.paths = paths
        self.timeout = timeout
        self.retry = retry
        state = Mutex(State(instances: paths.map { path in
            Instance(status: InstanceStatus(name: FleetNaming.placeholder(path: path), pid: 0, connected: false, path: path))
        }))
        // Unbounded: the dashboard folds well over 500,000 events a second, and each
        // connection's own buffer (10,000 events, then `dropped`) bounds what a stalled
        // publisher side can queue.
        (events, continuation) = AsyncStream.makeStream(of: CacheEvent.self, bufferingPolicy: .unbounded)
    }

    /// Attaches to every socket in `paths` at once. Those that cannot be reached now are tried
    /// again in the background (``FleetRetry``) and shown as gone until they answer.
    ///
    /// - Parameters:
    ///   - timeout: How long each connection may take to greet (default 5 s).
    ///   - retry: The backoff for instances not reached or gone.
    /// - Throws: ``FleetAttachError/noneReachable(_:)`` when not one socket can be attached
    ///   to (each with why), ``FleetAttachError/duplicateSocket(path:)`` for a path named twice.
    public static func connect(
        paths: [String], timeout: Duration = .seconds(5), retry: FleetRetry = FleetRetry()
    ) async throws -> FleetAttach {
        var seen = Set<String>()
        for path in paths where !seen.insert(path).inserted { throw FleetAttachError.duplicateSocket(path: path) }
        let fleet = FleetAttach(paths: paths, timeout: timeout, retry: retry)
        let attempts = await withTaskGroup(of: (Int, Result<AttachClient, any Error>).self) { group in
            for (index, path) in paths.enumerated() {
                group.addTask {
                    do { return (index, .success(try await AttachClient.connect(path: path, timeout: timeout))) }
                    catch { return (index, .failure(error)) }
                }
            }
            var results: [(Int, Result<AttachClient, any Error>)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }
        }
        let failures = attempts.compactMap { index, result -> (path: String, reason: String)? in
            if case .failure(let error) = result { return (paths[index], "\(error)") }
            return nil
        }
        guard failures.count < paths.count else { throw FleetAttachError.noneReachable(failures) }
        for (index, result) in attempts {
            if case .success(let client) = result { _ = fleet.adopt(client, index: index) }
        }
        for (index, result) in attempts {
            let client = try? result.get()
            fleet.tasks.withLock { $0.append(Task { await fleet.watch(index: index, first: client) }) }
        }
        return fleet
    }

    /// The instances: names, pids, connected or gone.
    public var roster: InstanceRoster { state.withLock { $0.roster } }

    /// Calls `handler` with the roster and a sentence for the status line each time an
    /// instance connects, goes or comes back (from the instances' tasks; it must not block).
    public func onChange(_ handler: @escaping @Sendable (InstanceRoster, String) -> Void) {
        state.withLock { $0.onChange = handler }
    }

    /// Sends `command` to the instance with index `instance` and waits for its answer.
    /// - Throws: ``FleetAttachError/gone(name:path:)`` when its connection is down,
    ///   ``FleetAttachError/unknownInstance(_:)``, or what `AttachClient.send` throws.
    public func send(_ command: ClientCommand, to instance: UInt16) async throws -> CommandResult {
        let (client, status) = state.withLock { state -> (AttachClient?, InstanceStatus?) in
            guard Int(instance) < state.instances.count else { return (nil, nil) }
            return (state.instances[Int(instance)].client, state.instances[Int(instance)].status)
        }
        guard let status else { throw FleetAttachError.unknownInstance(instance) }
        guard let client, status.connected else { throw FleetAttachError.gone(name: status.name, path: status.path) }
        return try await client.send(command)
    }

    /// Detaches from every instance and stops retrying; ``events`` finishes.
    public func close() {
        let clients = state.withLock { state -> [AttachClient] in
            state.closed = true
            return state.instances.compactMap(\.client)
        }
        for task in tasks.withLock({ $0 }) { task.cancel() }
        for client in clients { client.close() }
        continuation.finish()
    }

    deinit {
        close()
    }

    // MARK: Instances

    /// A change of the roster, to announce outside the lock.
    private struct Change {
        var roster: InstanceRoster
        var notice: String
        var handler: (@Sendable (InstanceRoster, String) -> Void)?

        func announce() { handler?(roster, notice) }
    }

    /// Seconds since the fleet connected: the merged timeline.
    private var wall: Double { (ContinuousClock.now - started).inSeconds }

    /// Makes `client` the current life of instance `index`; returns the notice for the status line.
    private func adopt(_ client: AttachClient, index: Int) -> Change? {
        state.withLock { state in
            guard !state.closed else { return nil }
            var instance = state.instances[index]
            let previousPID = instance.status.pid
            if !instance.named {
                let taken = state.instances.indices.filter { $0 != index && state.instances[$0].named }.map { state.instances[$0].status.name }
                instance.status.name = FleetNaming.unique(client.server.process, taken: taken)
                instance.named = true
            }
            instance.client = client
            instance.offset = nil
            instance.status.pid = client.server.pid
            instance.status.connected = true
            state.instances[index] = instance
            let name = instance.status.name
            let notice: String
            if previousPID == 0 {
                notice = "attached to \(name) (pid \(client.server.pid)) at \(client.path)"
            } else if previousPID != client.server.pid {
                notice = "\(name) is back as a new process (pid \(client.server.pid), was \(previousPID)): a new life, its store as it is now"
            } else {
                notice = "\(name) (pid \(client.server.pid)) reconnected"
            }
            return Change(roster: state.roster, notice: notice, handler: state.onChange)
        }
    }

    /// Marks instance `index` gone; returns the notice.
    private func lose(index: Int, client: AttachClient, reason: String) -> Change? {
        state.withLock { state in
            guard !state.closed, state.instances[index].client === client else { return nil }
            state.instances[index].client = nil
            state.instances[index].status.connected = false
            let status = state.instances[index].status
            return Change(
                roster: state.roster, notice: "\(status.name) (pid \(status.pid)) is gone: \(reason); reconnecting when its socket accepts again",
                handler: state.onChange)
        }
    }

    /// Reads instance `index` for as long as the fleet is open: its events while connected,
    /// then attempts to reconnect with backoff.
    private func watch(index: Int, first: AttachClient?) async {
        var client = first
        var wait = retry.initial
        let path = paths[index]
        while !Task.isCancelled {
            guard let current = client else {
                do {
                    let reached = try await AttachClient.connect(path: path, timeout: timeout)
                    client = reached
                    wait = retry.initial
                    adopt(reached, index: index)?.announce()
                } catch {
                    try? await Task.sleep(for: wait)
                    wait = retry.next(after: wait)
                }
                continue
            }
            var reason = "the connection closed"
            do {
                for try await event in current.events { forward(event, index: index) }
            } catch {
                reason = "\(error)"
            }
            current.close()
            client = nil
            guard !Task.isCancelled else { return }
            lose(index: index, client: current, reason: reason)?.announce()
        }
    }

    /// Tags, re-stamps and renumbers one event of instance `index` and passes it on.
    private func forward(_ event: CacheEvent, index: Int) {
        let wall = self.wall
        var event = event
        state.withLock { state in
            let offset = state.instances[index].offset ?? (wall - event.time)
            state.instances[index].offset = offset
            state.seq += 1
            event.seq = state.seq
            event.time += offset
            event.instance = UInt16(clamping: index)
            // Yielded under the lock, so the merged order is the numbering's.
            continuation.yield(event)
        }
    }
}
