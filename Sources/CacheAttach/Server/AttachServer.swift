public import CacheEvents
import SessionLog
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// Publishes an app's cache events on a Unix domain socket so that `cachescope attach` — any
/// number of them at once — can watch the app live and send it purge, refresh and reload
/// commands.
///
/// ```swift
/// let server = try await AttachServer.start(
///     events: client.events,
///     snapshot: { await client.snapshotEvents() },
///     commands: { await client.perform($0) },
///     processName: "myapp"
/// )
/// // … later, at shutdown:
/// await server.stop()
/// ```
///
/// Each dashboard that connects gets its own lossy subscription to `events` whose first events
/// are what `snapshot` returns (the store's entries and statistics), so a dashboard that
/// attaches late starts from the current state. A dashboard that is slow or stopped never slows
/// the app: its subscription buffer absorbs the burst and, once full, the bus counts the events
/// it could not take; the dashboard later receives a `dropped(count)` event. Commands a
/// dashboard sends are handed to `commands` one at a time, and the result goes back to that
/// dashboard only. The wire protocol is described in `docs/attach.md`.
///
/// Concurrency: a `final class` of constants plus an `Atomic` stop flag; each connection
/// runs in its own task, kept in a registry whose tasks ``stop()`` cancels.
public final class AttachServer: Sendable {
    /// The socket's path.
    public let path: String
    /// The greeting every dashboard receives.
    public let hello: AttachHello

    private let channel: any Channel
    private let connections: ConnectionRegistry
    private let socketIdentity: FileIdentity?
    private let stopped = Atomic(false)

    private static let logger = Logger(label: "cachescope.attach")

    private init(path: String, hello: AttachHello, channel: any Channel, connections: ConnectionRegistry, socketIdentity: FileIdentity?) {
        self.path = path
        self.hello = hello
        self.channel = channel
        self.connections = connections
        self.socketIdentity = socketIdentity
    }

    /// Starts publishing.
    ///
    /// - Parameters:
    ///   - events: The bus to publish; each dashboard subscribes to it.
    ///   - snapshot: The events a dashboard receives first (typically `entries` and
    ///     `storeStats`); called once per connecting dashboard.
    ///   - commands: Performs a dashboard's command and says what happened.
    ///   - path: The socket path. By default `<AttachPaths.defaultDirectory>/<processName>-<pid>.sock`,
    ///     whose directory is created (mode `0700`) when missing. An explicit path's directory
    ///     must already exist and be private to the current user.
    ///   - processName: The name dashboards show for this process, also used in the default path.
    ///   - bufferSize: Events buffered per dashboard before it starts losing them (default 10,000).
    /// - Throws: ``AttachError``: ``AttachError/alreadyInUse(path:)`` when a live process serves the
    ///   path, ``AttachError/unsafeDirectory(path:problem:)`` or ``AttachError/symbolicLink(path:)``
    ///   when the location is not safe, ``AttachError/notASocket(path:)`` when a file is in the way.
    ///   A stale socket (one nothing listens on) at the path is removed and replaced.
    public static func start(
        events: EventBus,
        snapshot: @escaping @Sendable () async -> [CacheEventKind],
        commands: @escaping @Sendable (ClientCommand) async -> CommandResult,
        path: String? = nil,
        processName: String,
        bufferSize: Int = 10_000
    ) async throws -> AttachServer {
        let pid = FileSystem.processID
        let socketPath = path ?? AttachPaths.defaultSocketPath(processName: processName, pid: pid)
        try SocketPlacement.prepare(socketPath, createDirectory: path == nil)
        let hello = AttachHello(process: processName, pid: pid)
        let connection = AttachConnection(
            bus: events, snapshot: snapshot, commands: commands, hello: hello,
            bufferSize: max(1, bufferSize), logger: logger
        )
        let connections = ConnectionRegistry()
        let channel = try await bind(socketPath, connection: connection, connections: connections)
        let identity: FileIdentity?
        do {
            // Between bind and chmod the socket has the umask's mode; its 0700 directory keeps
            // everyone else out meanwhile.
            try FileSystem.setPermissions(socketPath, 0o600)
            identity = try FileSystem.status(of: socketPath)?.identity
        } catch {
            try? await channel.close()
            await connections.closeAll()
            try? FileSystem.remove(socketPath)
            throw error
        }
        return AttachServer(path: socketPath, hello: hello, channel: channel, connections: connections, socketIdentity: identity)
    }

    /// Checks a socket path given to ``start(events:snapshot:commands:path:processName:bufferSize:)``
    /// before anything starts (a command line's `--publish-socket`), touching nothing: it fits in
    /// a socket address, its directory exists and is private to this user, and nothing but a
    /// socket is at the path.
    /// - Throws: ``AttachError`` naming the path and the problem.
    public static func checkPath(_ path: String) throws(AttachError) {
        try SocketPlacement.check(path)
    }

    /// Stops publishing: no new dashboards can connect, attached ones are disconnected (their
    /// streams end with ``AttachError/closedByPeer(path:)``), and the socket file is removed —
    /// unless another server has replaced it meanwhile. Calling it again does nothing.
    public func stop() async {
        guard markStopped() else { return }
        try? await channel.close()
        removeSocketFile()
        await connections.closeAll()
    }

    deinit {
        // A server dropped without `stop()` still frees its socket path.
        if markStopped() {
            channel.close(promise: nil)
            removeSocketFile()
            let connections = connections
            Task { await connections.closeAll() }
        }
    }

    // MARK: - Internals

    private func markStopped() -> Bool {
        stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    private func removeSocketFile() {
        guard let current = try? FileSystem.status(of: path), current.kind == .socket,
              current.identity == socketIdentity else { return }
        try? FileSystem.remove(path)
    }

    private static func bind(
        _ path: String, connection: AttachConnection, connections: ConnectionRegistry
    ) async throws(AttachError) -> any Channel {
        let descriptor = try ListeningSocket.make(boundTo: path)
        do {
            return try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .childChannelOption(.writeBufferWaterMark, value: .init(low: 32 * 1024, high: 64 * 1024))
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let decoder = LineFrameDecoder(maximumLength: AttachConnection.maximumLineLength)
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(decoder))
                        let dashboard = try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                        connections.run { await connection.serve(dashboard) }
                    }
                }
                .withBoundSocket(descriptor)
                .get()
        } catch {
            // NIO closes the descriptor when it fails after taking it over; the file is ours to remove.
            try? FileSystem.remove(path)
            throw .system(call: "listen", path: path, message: "\(error)")
        }
    }
}
