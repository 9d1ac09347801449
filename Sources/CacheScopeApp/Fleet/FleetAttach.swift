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
/// fleet.onChange { roster, notice in print(notice.text) }   // "web#2 (pid 42) is gone: …"
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
        /// Events of this instance the merged stream had no room for, not yet reported.
        var dropped = 0
    }

    private struct State {
        var instances: [Instance]
        var seq: UInt64 = 0
        var closed = false
        var onChange: (@Sendable (InstanceRoster, FleetNotice) -> Void)?
        var roster: InstanceRoster { InstanceRoster(instances.map(\.status)) }
    }

    private let state: Mutex<State>
    /// Held while a roster change is announced, so announcements never overtake each other:
    /// each hands over the roster as it is when it runs, so the last one is always current.
    private let announcing = Mutex(())
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
        // Bounded, as each connection's own buffer is: the instances' reading tasks drain
        // their connections at once, so this is where a dashboard that falls behind makes
        // events wait. What does not fit is counted per instance and reported as that
        // instance's `dropped` event once there is room again (the dashboard counts it).
        (events, continuation) = AsyncStream.makeStream(
            of: CacheEvent.self, bufferingPolicy: .bufferingOldest(Self.mergedBufferSize))
    }

    /// Events the merged stream holds for a dashboard that falls behind: 100,000.
    public static let mergedBufferSize = 100_000

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
        if let (_, repeated) = firstRepeatedSocket(in: paths) { throw FleetAttachError.duplicateSocket(path: repeated) }
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

    /// The first socket of `paths` that names one named before it, in any spelling (`a.sock`,
    /// `./a.sock`): the earlier spelling and the repeated one; `nil` when each is named once.
    public static func firstRepeatedSocket(in paths: [String]) -> (first: String, repeated: String)? {
        var seen: [String: String] = [:]
        for path in paths {
            let resolved = URL(fileURLWithPath: path).standardizedFileURL.path
            if let first = seen[resolved] { return (first, path) }
            seen[resolved] = path
        }
        return nil
    }

    /// The instances: names, pids, connected or gone.
    public var roster: InstanceRoster { state.withLock { $0.roster } }

    /// Calls `handler` with the roster and what changed (its kind and a sentence for the status
    /// line) each time an instance connects, goes or comes back (from the instances' tasks; it
    /// must not block).
    public func onChange(_ handler: @escaping @Sendable (InstanceRoster, FleetNotice) -> Void) {
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

    /// Detaches from every instance and stops retrying; ``events`` finishes. Call it when
    /// done: the instances' tasks hold the fleet until then.
    public func close() {
        let clients = state.withLock { state -> [AttachClient] in
            state.closed = true
            state.onChange = nil
            return state.instances.compactMap(\.client)
        }
        for task in tasks.withLock({ tasks in defer { tasks = [] }; return tasks }) { task.cancel() }
        for client in clients { client.close() }
        continuation.finish()
    }

    // MARK: Instances

    /// A change of the roster, to announce outside the state's lock.
    private struct Change {
        var notice: FleetNotice
    }

    /// Hands `change` to the handler with the roster as it is now. Announcements run one at a
    /// time, so two instances changing at once cannot leave an older roster shown last.
    private func announce(_ change: Change?) {
        guard let change else { return }
        announcing.withLock { _ in
            let (roster, handler) = state.withLock { ($0.roster, $0.onChange) }
            handler?(roster, change.notice)
        }
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
            let notice: FleetNotice
            if previousPID == 0 {
                notice = FleetNotice(.attached, "attached to \(name) (pid \(client.server.pid)) at \(client.path)")
            } else if previousPID != client.server.pid {
                notice = FleetNotice(
                    .newLife,
                    "\(name) is back as a new process (pid \(client.server.pid), was \(previousPID)): a new life, its store as it is now")
            } else {
                notice = FleetNotice(.reconnected, "\(name) (pid \(client.server.pid)) reconnected")
            }
            return Change(notice: notice)
        }
    }

    /// Marks instance `index` gone after the last event numbered so far (every event of the
    /// dropped connection was forwarded before this runs); returns the notice.
    private func lose(index: Int, client: AttachClient, reason: String) -> Change? {
        state.withLock { state in
            guard !state.closed, state.instances[index].client === client else { return nil }
            state.instances[index].client = nil
            state.instances[index].status.connected = false
            state.instances[index].status.goneAfter = state.seq
            let status = state.instances[index].status
            return Change(notice: FleetNotice(
                .gone, "\(status.name) (pid \(status.pid)) is gone: \(reason); reconnecting when its socket accepts again"))
        }
    }

    /// Reads instance `index` for as long as the fleet is open: its events while connected,
    /// then attempts to reconnect with backoff. The backoff starts again only after a
    /// connection lasted ``FleetRetry/settled``: a server that greets and drops at once (one
    /// shutting down) is retried ever more slowly, not in a tight loop.
    private func watch(index: Int, first: AttachClient?) async {
        var client = first
        var wait = retry.initial
        let path = paths[index]
        while !Task.isCancelled {
            guard let current = client else {
                do {
                    let reached = try await AttachClient.connect(path: path, timeout: timeout)
                    client = reached
                    announce(adopt(reached, index: index))
                } catch {
                    try? await Task.sleep(for: wait)
                    wait = retry.next(after: wait)
                }
                continue
            }
            let connected = ContinuousClock.now
            var reason = "the connection closed"
            do {
                for try await event in current.events { forward(event, index: index) }
            } catch {
                reason = "\(error)"
            }
            current.close()
            client = nil
            guard !Task.isCancelled else { return }
            announce(lose(index: index, client: current, reason: reason))
            if ContinuousClock.now - connected >= retry.settled {
                wait = retry.initial
            } else {
                try? await Task.sleep(for: wait)
                wait = retry.next(after: wait)
            }
        }
    }

    /// Tags, re-stamps and renumbers one event of instance `index` and passes it on. When the
    /// merged stream is full the event is counted as dropped for its instance; the count goes
    /// out as that instance's `dropped` event before its next event that fits.
    private func forward(_ event: CacheEvent, index: Int) {
        let wall = self.wall
        var event = event
        state.withLock { state in
            let offset = state.instances[index].offset ?? (wall - event.time)
            state.instances[index].offset = offset
            event.time += offset
            event.instance = UInt16(clamping: index)
            // Yielded under the lock, so the merged order is the numbering's.
            if state.instances[index].dropped > 0 {
                var report = CacheEvent(
                    seq: state.seq + 1, time: event.time, kind: .dropped(Dropped(count: state.instances[index].dropped)))
                report.instance = event.instance
                guard case .enqueued = continuation.yield(report) else {
                    state.instances[index].dropped += 1
                    return
                }
                state.seq += 1
                state.instances[index].dropped = 0
            }
            event.seq = state.seq + 1
            if case .enqueued = continuation.yield(event) {
                state.seq += 1
            } else {
                state.instances[index].dropped += 1
            }
        }
    }
}
