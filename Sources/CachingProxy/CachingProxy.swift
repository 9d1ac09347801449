import ConnectionErrors
public import CachingClient
public import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A caching reverse proxy: an HTTP/1.1 server that forwards every request to one origin
/// through a ``CachingClient`` — which should be in shared mode (`mode = .shared`) and must not
/// follow redirects — and answers from its cache where RFC 9111 allows.
///
/// ```swift
/// var clientConfiguration = CachingClientConfiguration(mode: .shared, followRedirects: false)
/// let client = try await CachingClient(configuration: clientConfiguration)
/// let origin = try ProxyOrigin(parsing: "http://127.0.0.1:8080")
/// let proxy = try await CachingProxy.start(CachingProxyConfiguration(origin: origin, port: 8081), client: client)
/// // curl -i http://127.0.0.1:8081/max-age/60  →  Cache-Status: cachescope;fwd=uri-miss;fwd-status=200;stored;ttl=60
/// await proxy.stop()                   // drains requests in flight
/// try await client.shutdown()
/// ```
///
/// Keep-alive and pipelining (answered in order); hop-by-hop fields removed both ways; `Via`
/// and `Cache-Status` (RFC 9211) on every response; `Host` set to the origin's. Requests it
/// refuses itself: malformed 400, body too large 413, target too long 414, header section too
/// large 431, `CONNECT` 501; the origin unreachable 502, too slow 504 (unless a stale response
/// may stand in). See docs/proxy.md.
///
/// A `final class` of constants plus a ``ConnectionRegistry`` (a `Mutex`): NIO's event loops
/// and the caller's tasks both use it.
public final class CachingProxy: Sendable {
    /// The configuration the proxy was started with.
    public let configuration: CachingProxyConfiguration
    /// The port it listens on (the one chosen when started with port 0).
    public let port: Int
    let registry: ConnectionRegistry
    private let group: MultiThreadedEventLoopGroup
    private let listener: any Channel
    private let logger: Logger
    private let stopped = Atomic(false)

    private init(
        configuration: CachingProxyConfiguration, registry: ConnectionRegistry, group: MultiThreadedEventLoopGroup,
        listener: any Channel, logger: Logger
    ) {
        (self.configuration, self.registry, self.group, self.listener, self.logger) = (configuration, registry, group, listener, logger)
        port = listener.localAddress?.port ?? configuration.port
    }

    /// The proxy's base URL, e.g. `http://127.0.0.1:8081` (IPv6 hosts bracketed).
    public var baseURL: String {
        "http://\(ProxyOrigin.authority(host: configuration.host, port: port))"
    }

    /// How many client connections are open.
    public var connectionCount: Int { registry.connectionCount }

    /// Starts listening.
    ///
    /// - Parameters:
    ///   - configuration: origin, address and limits.
    ///   - client: the cache every request goes through; the proxy does not shut it down.
    ///   - accessLog: called once per answered request (on an event-loop thread: keep it short).
    ///   - logger: connection errors at debug level; default discards.
    /// - Throws: ``CachingProxyError`` when the configuration cannot be used or the address
    ///   cannot be bound.
    public static func start(
        _ configuration: CachingProxyConfiguration, client: CachingClient,
        accessLog: (@Sendable (ProxyAccessRecord) -> Void)? = nil,
        logger: Logger = Logger(label: "cachescope.proxy", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws(CachingProxyError) -> CachingProxy {
        try configuration.validate()
        guard (0...65_535).contains(configuration.port) else { throw .invalidLimit(name: "port", value: configuration.port) }
        let registry = ConnectionRegistry(maximumConnections: configuration.maximumConnections)
        let exchange = ProxyExchange(
            client: client, origin: configuration.origin, name: configuration.name,
            cacheStatusValues: CacheStatusValues(cacheName: configuration.name),
            answersImmediately: configuration.answersHitsOnEventLoop)
        let limits = RequestLimits(
            maximumURILength: configuration.maximumURILength, maximumHeaderBytes: configuration.maximumHeaderBytes,
            maximumRequestBodyBytes: configuration.maximumRequestBodyBytes)
        let timeout = configuration.headerReadTimeout
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let connection = ConnectionSetup(
            registry: registry,
            handler: {
                ProxyHTTPHandler(
                    exchange: exchange, limits: limits, headerReadTimeout: timeout, registry: registry, accessLog: accessLog,
                    logger: logger)
            }, decoderLimits: limits.decoderLimits, accessLog: accessLog)
        // A listen backlog for bursts of new connections (a load test opens hundreds at once).
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.backlog, value: 1024)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in channel.eventLoop.makeCompletedFuture { try connection.configure(channel) } }
        let listener: any Channel
        do {
            listener = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
        } catch {
            try? await group.shutdownGracefully()
            throw .bindFailed(host: configuration.host, port: configuration.port, detail: ConnectionFailureText.describe(error))
        }
        let proxy = CachingProxy(configuration: configuration, registry: registry, group: group, listener: listener, logger: logger)
        logger.info("proxy listening", metadata: ["url": "\(proxy.baseURL)", "origin": "\(configuration.origin)"])
        return proxy
    }

    /// Stops gracefully: no new connections; idle connections close at once; requests in
    /// flight are answered (with `Connection: close`) for up to
    /// ``CachingProxyConfiguration/drainTimeout``, after which they are cancelled and their
    /// connections closed. Calling it again does nothing.
    public func stop() async {
        guard stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        try? await listener.close().get()
        for channel in registry.startDraining() {
            channel.pipeline.fireUserInboundEventTriggered(DrainEvent())
        }
        let drained = await waitUntil(within: configuration.drainTimeout) {
            self.registry.requestsInFlight == 0 && self.registry.connectionCount == 0
        }
        if !drained {
            logger.warning("requests still in flight after the drain timeout; cancelling them",
                metadata: ["requests": "\(registry.requestsInFlight)"])
            registry.cancelRequests()
            _ = await waitUntil(within: .seconds(2)) { self.registry.requestsInFlight == 0 }
            for channel in registry.startDraining() { try? await channel.close().get() }
        }
        try? await group.shutdownGracefully()
        logger.info("proxy stopped")
    }

    /// Polls `condition` every 10 ms until it holds or `limit` passes; whether it held.
    private func waitUntil(within limit: Duration, _ condition: @Sendable () -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        while clock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    deinit {
        // A forgotten stop() must not leak the event-loop threads.
        guard !stopped.load(ordering: .acquiring) else { return }
        listener.close(promise: nil)
        group.shutdownGracefully { _ in }
    }
}
