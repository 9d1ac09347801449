public import Foundation
public import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A real HTTP/1.1 origin server on a loopback socket with an endpoint for every HTTP caching
/// case (see ``EndpointKind`` for the table), built to be the other end of the caching client's
/// tests and of the `cachescope demo` workload.
///
/// ```swift
/// let origin = try await DemoOrigin.start()          // 127.0.0.1, a free port
/// // GET \(origin.baseURL)/max-age/60 …
/// #expect(origin.requestCount(path: "/max-age/60") == 1)
/// try await origin.stop()                             // later connections are refused
/// ```
///
/// Why a `final class` and not an actor: the counters and switches are read and written from
/// NIO event-loop threads, which cannot `await`, and tests want to read them synchronously. All
/// mutable state sits behind `Mutex`es (``RequestCounter``, ``EndpointState``) or is an
/// `Atomic` (the stopped flag), so the class is `Sendable` without `@unchecked`.
public final class DemoOrigin: Sendable {
    /// The port the server listens on (the ephemeral one chosen when started with port 0).
    public let port: Int
    /// The host the server was started on, e.g. `127.0.0.1`.
    public let host: String

    let counter: RequestCounter
    let state: EndpointState
    let gates: ResponseGates
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let stopped = Atomic(false)

    private init(host: String, port: Int, counter: RequestCounter, state: EndpointState, gates: ResponseGates,
                 group: MultiThreadedEventLoopGroup, channel: any Channel) {
        self.host = host
        self.port = port
        self.counter = counter
        self.state = state
        self.gates = gates
        self.group = group
        self.channel = channel
    }

    /// The origin's base URL without a trailing slash, e.g. `http://127.0.0.1:49152`
    /// (IPv6 hosts are bracketed).
    public var baseURL: String {
        let authorityHost = host.contains(":") ? "[\(host)]" : host
        return "http://\(authorityHost):\(port)"
    }

    /// Starts the origin, bound to a real socket.
    ///
    /// - Parameters:
    ///   - host: the address to bind; default `127.0.0.1`.
    ///   - port: the port to bind; default 0, which picks a free ephemeral port (read it from
    ///     ``port``).
    ///   - now: the server's clock, used for `Date`, `Expires`, `/rotating` and the fixed
    ///     `Last-Modified` values (taken once at start); default the system clock. Tests pass a
    ///     clock they control to move time without sleeping.
    ///   - logger: where connection errors are logged at debug level; default discards.
    /// - Throws: ``DemoOriginError`` when the port is out of range or the address cannot be bound.
    public static func start(
        host: String = "127.0.0.1",
        port: Int = 0,
        now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "cachescope.demo-origin", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws(DemoOriginError) -> DemoOrigin {
        guard (0...65_535).contains(port) else { throw .invalidPort(port) }
        let counter = RequestCounter()
        let state = EndpointState()
        let gates = ResponseGates()
        let service = OriginService(
            counter: counter, state: state, clock: now,
            startTime: Int64(now().timeIntervalSince1970.rounded(.down)))

        let group = MultiThreadedEventLoopGroup(numberOfThreads: min(2, System.coreCount))
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.configureHTTPServerPipeline(withErrorHandling: true)
                    try pipeline.addHandler(OriginHTTPHandler(service: service, gates: gates, logger: logger))
                }
            }

        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: host, port: port).get()
        } catch {
            try? await group.shutdownGracefully()
            throw DemoOriginError.bindFailed(host: host, port: port, error: error)
        }
        let boundPort = channel.localAddress?.port ?? port
        logger.debug("demo origin listening", metadata: ["host": "\(host)", "port": "\(boundPort)"])
        return DemoOrigin(
            host: host, port: boundPort, counter: counter, state: state, gates: gates, group: group, channel: channel)
    }

    /// Stops the origin: closes the listening socket and every open connection, after which
    /// connecting is refused (this is how tests simulate a dead origin). Calling it again does
    /// nothing.
    public func stop() async throws {
        guard stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        gates.removeAll()  // a held response is never sent to a stopping event loop
        try? await channel.close().get()
        try await group.shutdownGracefully()
    }

    deinit {
        // A forgotten stop() must not leak the event-loop threads.
        if !stopped.load(ordering: .acquiring) {
            channel.close(promise: nil)
            group.shutdownGracefully { _ in }
        }
    }
}
