import CacheAttach
import CacheEvents
import SessionLog
import CacheStore
import CachingClient
import Dashboard
import DemoOrigin
import Dispatch
import Foundation
import HTTPTypes
import Logging
import TerminalUI
import HTTPCaching
public import TrafficFilter
public import SharedTier

/// The objects `cachescope demo` runs — origin, client with a disk store, workload, optional
/// recorder and attach server — started together and shut down together.
///
/// Kept apart from ``DemoCommand`` so the command stays options and wiring. What it shares with
/// `cachescope proxy` (store, recorder, attach server, dashboard, summary, the order of
/// shut-down) is ``WatchedClient``; this file adds the origin and the workload.
public final class DemoSession: Sendable {
    /// What `cachescope demo` was asked for, its paths already checked.
    public struct Options: Sendable {
        /// Stop the traffic after this long; `nil`: run until `q` or a signal.
        public var duration: Duration?
        /// Requests the workload starts per second.
        public var rate: Double
        /// Where the disk store lives (kept afterwards); `nil`: a temporary directory, removed
        /// at the end.
        public var cacheDirectory: DirectoryPath?
        /// The dashboard's theme.
        public var theme: ThemeChoice
        /// Where to record the session log; `nil`: no recording. Written to a temporary file
        /// beside it and renamed into place at the end (mode 0600).
        public var record: OutputPath?
        /// Publish the events on an attach socket.
        public var publish: Bool
        /// Where to publish (`--publish-socket`); `nil`: the default path for this process.
        public var publishPath: String?
        /// The log file (appended to); `nil`: `cachescope-demo.log` in the temporary directory.
        public var log: OutputPath?
        /// `--filter`: the dashboard opens filtered, the recording keeps only whole matching
        /// requests and the headless summary counts only them; `nil`: everything.
        public var filter: Filter?
        /// `--read-only`: the dashboard refuses every command that changes the cache.
        public var readOnly: Bool
        /// `--stats-every SECONDS --json` with `--no-ui`: a JSON line of figures every this many
        /// seconds instead of the summary at the end; `nil`: the summary.
        public var statsEvery: Double?
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
            duration: Duration?, rate: Double, cacheDirectory: DirectoryPath?, theme: ThemeChoice, record: OutputPath?,
            publish: Bool, log: OutputPath?, filter: Filter? = nil, readOnly: Bool = false, metrics: MetricsEndpoint.Address? = nil,
            statsEvery: Double? = nil, sharedTier: SharedTierConfiguration? = nil
        ) {
            self.sharedTier = sharedTier
            self.statsEvery = statsEvery
            self.filter = filter
            self.readOnly = readOnly
            self.metrics = metrics
            self.duration = duration
            self.rate = rate
            self.cacheDirectory = cacheDirectory
            self.theme = theme
            self.record = record
            self.publish = publish
            self.log = log
        }
    }

    let options: Options
    let origin: DemoOrigin
    /// The client with its store, recorder and attach server.
    let watched: WatchedClient
    private let logger = Logger(label: "cachescope.demo")

    var client: CachingClient { watched.client }

    private init(options: Options, origin: DemoOrigin, watched: WatchedClient) {
        self.options = options
        self.origin = origin
        self.watched = watched
    }

    /// Starts everything but the traffic.
    /// - Throws: ``PathError`` when the store's directory or the recording's temporary file
    ///   cannot be created; ``MetricsEndpointError``; the store's, the origin's or the attach
    ///   server's errors.
    public static func start(_ options: Options) async throws -> DemoSession {
        let watched = try await WatchedClient.start(
            command: "demo", cacheDirectory: options.cacheDirectory, record: options.record, publish: options.publish,
            publishPath: options.publishPath, log: options.log, filter: options.filter, metrics: options.metrics,
            readOnly: options.readOnly
        ) { directory in
            var configuration = CachingClientConfiguration()
            configuration.store = StoreConfiguration(memoryCapacity: 4 << 20, diskCapacity: 64 << 20, directory: directory)
            configuration.store.tagField = options.tagField
            configuration.sharedTier = options.sharedTier
            return configuration
        }
        let origin: DemoOrigin
        do {
            origin = try await DemoOrigin.start(host: "127.0.0.1", port: 0)
        } catch {
            await watched.shutDown(startFailed: true)
            throw error
        }
        return DemoSession(options: options, origin: origin, watched: watched)
    }

    // MARK: Running

    /// Opens the dashboard on the live traffic until `q`; returns the process exit status.
    public func runDashboard() async throws -> Int32 {
        let duration = options.duration
        return try await watched.runDashboard(
            theme: options.theme, notes: [], readOnly: options.readOnly, rewindEvents: options.rewindEvents,
            traffic: { app in
                await self.runWorkload()
                if let duration { app.setStatus("the workload finished after \(Self.seconds(duration)) s; q quits") }
            },
            stopLast: { await self.stopOrigin() })
    }

    /// Runs the traffic without a dashboard (until `--duration` passes, or SIGINT/SIGTERM/SIGHUP) and
    /// prints the session summary — or, with ``Options/statsEvery``, a JSON line every interval;
    /// returns the process exit status (128 + N after signal N, 1 when the recording could not
    /// be written).
    /// - Throws: ``StatsIntervalError`` when the interval is not a positive number.
    public func runHeadless() async throws -> Int32 {
        let stats = try options.statsEvery.map { try StatsStream(every: $0) }
        return try await watched.runHeadless(
            header: "Demo origin: \(origin.baseURL)\n", stats: stats, traffic: { await self.runWorkload() },
            stopLast: { await self.stopOrigin() })
    }

    private func stopOrigin() async {
        do { try await origin.stop() } catch { logger.error("origin stop failed", metadata: ["error": "\(error)"]) }
    }

    /// Sends the demo workload through the client until `--duration` passes or the task is
    /// cancelled.
    private func runWorkload() async {
        var configuration = WorkloadConfiguration.demo
        configuration.duration = options.duration
        configuration.requestsPerSecond = options.rate
        let workload: Workload
        do {
            workload = try Workload(baseURL: origin.baseURL, configuration: configuration)
        } catch {
            logger.error("workload not started", metadata: ["error": "\(error)"])
            return
        }
        let client = self.client
        let logger = self.logger
        await workload.run { request in
            var fields = HTTPFields()
            for header in request.headers {
                if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
            }
            guard let httpRequest = CachingClient.request(url: request.url, method: HTTPRequest.Method(request.method) ?? .get, headers: fields)
            else { return }
            do {
                _ = try await client.data(for: httpRequest, body: request.method == "POST" ? Data("{}".utf8) : nil)
            } catch {
                logger.debug("request failed", metadata: ["url": "\(request.url)", "error": "\(error)"])
            }
        }
    }

    // MARK: Helpers

    /// `3` for three seconds, `2.5` for two and a half.
    public static func seconds(_ duration: Duration) -> String {
        let value = duration.inSeconds
        return value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
