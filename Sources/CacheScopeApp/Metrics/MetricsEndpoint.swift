import ConnectionErrors
import CachingProxy
public import DemoOrigin
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--metrics HOST:PORT`: a small HTTP/1.1 server (SwiftNIO, as the demo origin and the proxy)
/// that answers `GET /metrics` with a ``CacheMetricsExposition`` in Prometheus' text exposition format.
///
/// ```swift
/// let address = try MetricsEndpoint.Address(ListenAddress(parsing: "127.0.0.1:9464"), allowRemote: false)
/// let endpoint = try await MetricsEndpoint.start(at: address)
/// let metrics = CacheMetrics(events: client.events, factory: endpoint.exposition)
/// // curl http://127.0.0.1:9464/metrics
/// await endpoint.stop()
/// ```
///
/// `GET` and `HEAD` of `/metrics` only: any other path is 404, any other method on it 405 (with
/// `Allow`). Loopback unless the ``Address`` allowed otherwise. One event-loop thread: a scrape
/// every few seconds is all it serves.
public final class MetricsEndpoint: Sendable {
    /// Where it listens, with the port it was given when asked for port 0.
    public let address: ListenAddress
    /// What it serves.
    public let exposition: CacheMetricsExposition
    private let group: MultiThreadedEventLoopGroup
    private let listener: any Channel
    private let stopped = Atomic(false)

    private init(address: ListenAddress, exposition: CacheMetricsExposition, group: MultiThreadedEventLoopGroup, listener: any Channel) {
        (self.address, self.exposition, self.group, self.listener) = (address, exposition, group, listener)
    }

    /// The URL to scrape, e.g. `http://127.0.0.1:9464/metrics` (IPv6 hosts bracketed).
    public var url: String { "http://\(address)/metrics" }

    /// Starts listening.
    /// - Parameter exposition: what to serve; default a new, empty one.
    /// - Throws: ``MetricsEndpointError/portInUse(_:)`` or ``MetricsEndpointError/bindFailed(_:detail:)``.
    public static func start(
        at address: Address, exposition: CacheMetricsExposition = CacheMetricsExposition()
    ) async throws(MetricsEndpointError) -> MetricsEndpoint {
        let requested = address.listen
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.configureHTTPServerPipeline(withErrorHandling: true)
                    try pipeline.addHandler(MetricsHTTPHandler(exposition: exposition))
                }
            }
        let listener: any Channel
        do {
            listener = try await bootstrap.bind(host: requested.host, port: requested.port).get()
        } catch {
            try? await group.shutdownGracefully()
            if let error = error as? IOError, error.errnoCode == EADDRINUSE { throw .portInUse(requested) }
            throw .bindFailed(requested, detail: ConnectionFailureText.describe(error))
        }
        let bound = ListenAddress(host: requested.host, port: listener.localAddress?.port ?? requested.port)
        return MetricsEndpoint(address: bound, exposition: exposition, group: group, listener: listener)
    }

    /// Stops listening and closes the connections. Calling it again does nothing.
    public func stop() async {
        guard stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        try? await listener.close().get()
        try? await group.shutdownGracefully()
    }

    deinit {
        // A forgotten stop() must not leak the event-loop thread.
        guard !stopped.load(ordering: .acquiring) else { return }
        listener.close(promise: nil)
        group.shutdownGracefully { _ in }
    }
}

extension MetricsEndpoint {
    /// `--metrics HOST:PORT`, checked: a loopback address, or any with `allowRemote`.
    public struct Address: Sendable, Equatable {
        /// The host and port.
        public let listen: ListenAddress

        /// Checks `listen`.
        /// - Throws: ``MetricsEndpointError/remoteNotAllowed(host:)`` when the host is not a
        ///   loopback address and `allowRemote` is `false`.
        public init(_ listen: ListenAddress, allowRemote: Bool) throws(MetricsEndpointError) {
            if !allowRemote, !CachingProxyConfiguration.isLoopback(listen.host) { throw .remoteNotAllowed(host: listen.host) }
            self.listen = listen
        }
    }
}
