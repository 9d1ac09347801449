public import CacheEvents
import SessionLog
import NIOCore
import NIOPosix
import SystemPackage
import HTTPCaching

/// A dashboard's connection to an app publishing with ``AttachServer``: the app's events as a
/// stream, and commands sent back.
///
/// ```swift
/// let client = try await AttachClient.connect()          // the one live process, or
/// // let client = try await AttachClient.connect(path: "/run/user/1000/cachescope/myapp-4242.sock")
/// Task { _ = try await client.send(.purge(key: "GET https://example.com/a")) }
/// for try await event in client.events { state.apply(event) }
/// ```
///
/// `events` starts with the app's snapshot (entries and statistics), then carries live events.
/// It finishes normally after ``close()`` and throws ``AttachError/closedByPeer(path:)`` when
/// the app goes away. If this dashboard falls more than 10,000 events behind, the events that
/// do not fit are counted and a `dropped(count)` event takes their place — just as the app's
/// side does for a dashboard that stops reading.
///
/// Concurrency: a `final class` of constants; mutable state lives in its session's `Mutex`.
public final class AttachClient: Sendable {
    /// The socket this client is attached to.
    public let path: String
    /// The server's greeting: protocol version, process name and pid.
    public let server: AttachHello
    /// The app's events: the snapshot first, then live ones. Keep the client alive while you
    /// read them: releasing it closes the connection, and the stream then finishes.
    public let events: AsyncThrowingStream<CacheEvent, any Error>

    private let channel: any Channel
    private let session: ClientSession

    /// Events buffered for a slow consumer before they are counted as dropped.
    static let eventBufferSize = 10_000
    /// The longest line accepted from a server (an `entries` snapshot of a large store is one line).
    static let maximumLineLength = 64 * 1024 * 1024

    private init(path: String, server: AttachHello, events: AsyncThrowingStream<CacheEvent, any Error>, channel: any Channel, session: ClientSession) {
        self.path = path
        self.server = server
        self.events = events
        self.channel = channel
        self.session = session
    }

    deinit {
        close()
    }

    /// Attaches to the socket at `path`, or — when `path` is `nil` — to the only live process
    /// that ``discover()`` finds.
    ///
    /// - Parameter timeout: How long to wait for the connection and the server's greeting (default 5 s).
    /// - Throws: ``AttachError``: no live publisher or several, no such socket, a symbolic link or
    ///   a file that is not a socket, permission denied, connection refused (a stale socket),
    ///   a protocol version mismatch, or a peer that is not an attach server.
    public static func connect(path: String? = nil, timeout: Duration = .seconds(5)) async throws -> AttachClient {
        let path = try path ?? chooseTarget(among: discover(), searched: AttachPaths.searchedDirectories).path
        try checkSocketFile(path)
        let (session, events) = ClientSession.make(path: path, bufferSize: eventBufferSize)
        let (channel, greeting) = try await open(path, session: session, timeout: timeout)
        let timer = channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            greeting.fail(AttachError.timedOut(path: path, waitingFor: "greeting", seconds: timeout.inSeconds))
        }
        let hello: AttachHello
        do {
            hello = try await greeting.futureResult.get()
            timer.cancel()
        } catch {
            timer.cancel()
            session.end(with: nil)
            try? await channel.close()
            throw error
        }
        session.onEventsTerminated { channel.close(promise: nil) }
        return AttachClient(path: path, server: hello, events: events, channel: channel, session: session)
    }

    /// Sends a command and waits for the app's answer.
    ///
    /// - Parameter timeout: How long to wait for the result (default 30 s: a refresh or reload
    ///   waits for the origin).
    /// - Throws: ``AttachError/timedOut(path:waitingFor:seconds:)``, ``AttachError/closedByPeer(path:)``,
    ///   ``AttachError/closed(path:)`` or ``AttachError/commandTooLong(path:command:bytes:limit:)``; `CancellationError` when the calling task is cancelled.
    public func send(_ command: ClientCommand, timeout: Duration = .seconds(30)) async throws -> CommandResult {
        let id = session.makeID()
        let line = try JSONLines().line(CommandRequest(id: id, command: command))
        let (session, channel, path) = (self.session, self.channel, self.path)
        // The app would answer a longer line by closing the connection.
        let length = line.readableBytes - 1  // without its newline
        guard length <= AttachConnection.maximumLineLength else {
            throw AttachError.commandTooLong(path: path, command: command.name, bytes: length, limit: AttachConnection.maximumLineLength)
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard session.register(id, continuation) else { return }
                let timer = channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
                    session.fail(id, with: AttachError.timedOut(path: path, waitingFor: "answer to \(command.name)", seconds: timeout.inSeconds))
                }
                session.setTimer(id, timer)
                channel.writeAndFlush(line).whenFailure { _ in
                    session.fail(id, with: AttachError.closedByPeer(path: path))
                }
            }
        } onCancel: {
            session.fail(id, with: CancellationError())
        }
    }

    /// Detaches: `events` finishes after what is already buffered, waiting commands fail with
    /// ``AttachError/closed(path:)``. Calling it again does nothing.
    public func close() {
        session.end(with: nil)
        channel.close(promise: nil)
    }

    /// Lines from the server that this version skipped (unknown event kinds or line types).
    public var skippedLines: Int { session.skipped }

    // MARK: - Connecting

    private static func checkSocketFile(_ path: String) throws(AttachError) {
        guard path.utf8.count <= AttachPaths.maximumPathLength else {
            throw .pathTooLong(path: path, limit: AttachPaths.maximumPathLength)
        }
        guard let status = try FileSystem.status(of: path) else { throw .noSuchSocket(path: path) }
        switch status.kind {
        case .socket: return
        case .symbolicLink: throw .symbolicLink(path: path)
        default: throw .notASocket(path: path)
        }
    }

    private static func open(
        _ path: String, session: ClientSession, timeout: Duration
    ) async throws(AttachError) -> (any Channel, EventLoopPromise<AttachHello>) {
        do {
            return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(TimeAmount(timeout))
                .connect(unixDomainSocketPath: path) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let greeting = channel.eventLoop.makePromise(of: AttachHello.self)
                        let decoder = LineFrameDecoder(maximumLength: maximumLineLength)
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(decoder))
                        try channel.pipeline.syncOperations.addHandler(AttachClientHandler(session: session, greeting: greeting))
                        return (channel, greeting)
                    }
                }
        } catch let error as IOError {
            switch Errno(rawValue: error.errnoCode) {
            case .connectionRefused: throw .connectionRefused(path: path)
            case .noSuchFileOrDirectory: throw .noSuchSocket(path: path)
            case .permissionDenied, .notPermitted: throw .permissionDenied(path: path)
            case let other: throw .system(call: "connect", path: path, message: other.description)
            }
        } catch ChannelError.connectTimeout {
            throw .timedOut(path: path, waitingFor: "connection", seconds: timeout.inSeconds)
        } catch {
            throw .system(call: "connect", path: path, message: "\(error)")
        }
    }
}
