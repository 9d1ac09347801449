import CacheAttach
import CacheStore
import HTTPCaching
import CachingClient
public import CachingProxy
public import SharedTier
import Dashboard
import Foundation
import Logging

/// What `cachescope proxy` runs: a caching reverse proxy in front of one origin, its shared-mode
/// client with a disk store, and — as in `demo` — the dashboard or the headless summary, the
/// optional recorder and attach server (``WatchedClient``).
///
/// Kept apart from the command so the command stays options and wiring.
public final class ProxySession: Sendable {
    /// What `cachescope proxy` was asked for, every value already checked.
    public struct Options: Sendable {
        /// Where the proxy listens and forwards, and its limits.
        public var proxy: CachingProxyConfiguration
        /// Where the disk store lives (kept afterwards); `nil`: a temporary directory, removed
        /// at the end.
        public var cacheDirectory: DirectoryPath?
        /// The memory tier's capacity in bytes. Default 32 MiB.
        public var memoryCapacity: Int
        /// The disk tier's capacity in bytes. Default 256 MiB.
        public var diskCapacity: Int
        /// Serve what the store holds but store nothing new (a 304 freshens nothing either).
        public var readOnly: Bool
        /// The dashboard's theme.
        public var theme: ThemeChoice
        /// Where to record the session log; `nil`: no recording.
        public var record: OutputPath?
        /// Publish the events on an attach socket.
        public var publish: Bool
        /// Where to publish (`--publish-socket`); `nil`: the default path for this process.
        public var publishPath: String?
        /// The log file (appended to); `nil`: `cachescope-proxy.log` in the temporary directory.
        public var log: OutputPath?
        /// `--rewind-events`: recent events the dashboard's `←` `→` rewind through (0: off).
        public var rewindEvents = RewindHistory.defaultCapacity
        /// `--metrics`: where Prometheus scrapes the cache's metrics; `nil`: no metrics.
        public var metrics: MetricsEndpoint.Address?
        /// `--shared-tier`: a shared tier on PostgreSQL behind the store; `nil`: none.
        public var sharedTier: SharedTierConfiguration?
        /// `--tag-header`: the response field whose tags are indexed. Default `Surrogate-Key`.
        public var tagField = SurrogateKeys.defaultFieldName

        /// Options; see each property.
        public init(
            proxy: CachingProxyConfiguration, cacheDirectory: DirectoryPath?, memoryCapacity: Int = 32 << 20,
            diskCapacity: Int = 256 << 20, readOnly: Bool = false, theme: ThemeChoice, record: OutputPath?, publish: Bool,
            log: OutputPath?, metrics: MetricsEndpoint.Address? = nil, sharedTier: SharedTierConfiguration? = nil
        ) {
            self.sharedTier = sharedTier
            self.proxy = proxy
            self.cacheDirectory = cacheDirectory
            self.memoryCapacity = memoryCapacity
            self.diskCapacity = diskCapacity
            self.readOnly = readOnly
            self.theme = theme
            self.record = record
            self.publish = publish
            self.log = log
            self.metrics = metrics
        }
    }

    let options: Options
    let watched: WatchedClient
    let proxy: CachingProxy
    /// The access log's lines, written to standard output in batches by a headless session.
    private let lines: AccessLogBuffer

    private init(options: Options, watched: WatchedClient, proxy: CachingProxy, lines: AccessLogBuffer) {
        self.options = options
        self.watched = watched
        self.proxy = proxy
        self.lines = lines
    }

    /// Starts the client, recorder, attach server and the proxy; `headless`: the access log
    /// goes to standard output (one line per request), else to the log file only.
    /// - Throws: ``PathError``, ``CachingProxyError`` (the address cannot be used or bound),
    ///   ``MetricsEndpointError``, the store's or the attach server's errors.
    public static func start(_ options: Options, headless: Bool) async throws -> ProxySession {
        let readOnly = options.readOnly
        let watched = try await WatchedClient.start(
            command: "proxy", cacheDirectory: options.cacheDirectory, record: options.record, publish: options.publish,
            publishPath: options.publishPath, log: options.log, metrics: options.metrics, readOnly: options.readOnly
        ) { directory in
            var configuration = CachingClientConfiguration.proxy(
                store: StoreConfiguration(memoryCapacity: options.memoryCapacity, diskCapacity: options.diskCapacity, directory: directory))
            if readOnly { configuration.willCache = { _, _ in .store(.notAllowed) } }
            configuration.store.tagField = options.tagField
            configuration.sharedTier = options.sharedTier
            return configuration
        }
        let lines = AccessLogBuffer()
        let logger = Logger(label: "cachescope.proxy")
        let accessLog: @Sendable (ProxyAccessRecord) -> Void = { record in
            let line = record.commonLogLine
            if headless { lines.append(line) } else { logger.info("\(line)") }
        }
        do {
            let proxy = try await CachingProxy.start(options.proxy, client: watched.client, accessLog: accessLog, logger: logger)
            return ProxySession(options: options, watched: watched, proxy: proxy, lines: lines)
        } catch {
            await watched.shutDown(startFailed: true)
            throw error
        }
    }

    /// `proxy on http://127.0.0.1:8081 → http://origin`, plus a warning when remote clients may
    /// connect.
    public var banner: String {
        var text = "proxy on \(proxy.baseURL) → \(options.proxy.origin)"
        if !CachingProxyConfiguration.isLoopback(options.proxy.host) { text += " (remote clients allowed)" }
        if options.readOnly { text += " (read-only cache)" }
        return text
    }

    // MARK: Running

    /// Opens the dashboard on the proxy's traffic until `q`; returns the process exit status.
    public func runDashboard() async throws -> Int32 {
        try await watched.runDashboard(
            theme: options.theme, notes: [banner], readOnly: options.readOnly, rewindEvents: options.rewindEvents, traffic: { _ in await Self.untilCancelled() },
            stopFirst: { await self.proxy.stop() })
    }

    /// Serves until SIGINT or SIGTERM, writing one line per request to standard output; then
    /// drains the requests in flight and prints the summary. Returns the exit status (128 + N
    /// after signal N).
    public func runHeadless() async throws -> Int32 {
        let publishing = watched.publisher.map { "; publishing on \($0.path)" } ?? ""
        let lines = self.lines
        let proxy = self.proxy
        do {
            try Console.write("cachescope \(banner)\(publishing); stop with Ctrl-C\n")
        } catch {
            // Nowhere to say where it listens: stop serving, and shut down as a start that
            // failed (a client is never left running; an existing --record log is left alone),
            // then say why.
            await proxy.stop()
            _ = await watched.shutDown(startFailed: true)
            throw error
        }
        return try await watched.runHeadless(
            header: "Proxy: \(proxy.baseURL) → \(options.proxy.origin)\n",
            traffic: {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await Self.untilCancelled() }
                    // One write per batch, every 50 ms, rather than a write and a task wake-up
                    // per request (docs/proxy.md, Performance). The lines are the run's output:
                    // when they cannot be written (`| head -1` left), serving ends too, and the
                    // summary's write then says why.
                    group.addTask {
                        while !Task.isCancelled {
                            let batch = lines.take()
                            if !batch.isEmpty {
                                do { try Console.write(batch) } catch { return }
                            }
                            try? await Task.sleep(for: .milliseconds(50))
                        }
                    }
                    await group.next()
                    group.cancelAll()
                }
                // Drain first, so every answered request has its line; then the last batch.
                await proxy.stop()
                let rest = lines.take()
                if !rest.isEmpty { try? Console.write(rest) }
            })
    }

    /// Returns when the calling task is cancelled.
    private static func untilCancelled() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(86_400))
        }
    }
}
