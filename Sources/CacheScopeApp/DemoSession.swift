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

/// The objects `cachescope demo` runs — origin, client with a disk store, workload, optional
/// recorder and attach server — started together and shut down together.
///
/// Kept apart from ``DemoCommand`` so the command stays options and wiring: this file owns the
/// order of start-up and shut-down.
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
        /// The log file (appended to); `nil`: `cachescope-demo.log` in the temporary directory.
        public var log: OutputPath?
        /// `--filter`: the dashboard opens filtered, the recording keeps only whole matching
        /// requests and the headless summary counts only them; `nil`: everything.
        public var filter: Filter?
        /// `--read-only`: the dashboard refuses every command that changes the cache.
        public var readOnly: Bool

        /// Options; see each property.
        public init(
            duration: Duration?, rate: Double, cacheDirectory: DirectoryPath?, theme: ThemeChoice, record: OutputPath?,
            publish: Bool, log: OutputPath?, filter: Filter? = nil, readOnly: Bool = false
        ) {
            self.filter = filter
            self.readOnly = readOnly
            self.duration = duration
            self.rate = rate
            self.cacheDirectory = cacheDirectory
            self.theme = theme
            self.record = record
            self.publish = publish
            self.log = log
        }
    }

    /// How long shutting down waits for stale-while-revalidate refreshes still in flight.
    public static let refreshDrainLimit: Duration = .seconds(3)

    let options: Options
    let origin: DemoOrigin
    let client: CachingClient
    let recorder: SessionRecorder?
    /// The temporary file the recorder writes, renamed over `--record`'s path at the end.
    let recordFile: StagedFile?
    let publisher: AttachServer?
    /// The store's directory when it is temporary (removed at the end).
    let temporaryDirectory: URL?
    /// A message for the status line about start-up problems that were worked around.
    let notice: String?
    private let logger = Logger(label: "cachescope.demo")

    private init(
        options: Options, origin: DemoOrigin, client: CachingClient, recorder: SessionRecorder?, recordFile: StagedFile?,
        publisher: AttachServer?, temporaryDirectory: URL?, notice: String?
    ) {
        self.options = options
        self.origin = origin
        self.client = client
        self.recorder = recorder
        self.recordFile = recordFile
        self.publisher = publisher
        self.temporaryDirectory = temporaryDirectory
        self.notice = notice
    }

    /// Starts everything but the traffic.
    /// - Throws: ``PathError`` when the store's directory or the recording's temporary file
    ///   cannot be created; the store's, the origin's or the attach server's errors.
    public static func start(_ options: Options) async throws -> DemoSession {
        let notice = FileLogging.start(options.log, command: "demo")
        // The recording's file first: a path that cannot be written fails before anything runs.
        let recordFile = try options.record?.stage()
        let directory: URL
        var temporary: URL?
        if let store = options.cacheDirectory {
            try store.create()
            directory = store.url
        } else {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachescope-demo-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            temporary = directory
        }
        let origin = try await DemoOrigin.start(host: "127.0.0.1", port: 0)
        var configuration = CachingClientConfiguration()
        configuration.store = StoreConfiguration(memoryCapacity: 4 << 20, diskCapacity: 64 << 20, directory: directory)
        let client = try await CachingClient(configuration: configuration)
        var recorder: SessionRecorder?
        if let recordFile {
            // The log starts with what is stored, so a replay's Entries view is complete.
            recorder = try SessionRecorder(
                bus: client.events, path: recordFile.temporaryPath, configuration: SessionRecorder.Configuration(filter: options.filter),
                initial: await client.snapshotEvents())
        }
        let publisher = options.publish
            ? try await AttachServer.start(
                events: client.events, snapshot: { await client.snapshotEvents() }, commands: { await client.perform($0) },
                processName: "cachescope-demo")
            : nil
        return DemoSession(
            options: options, origin: origin, client: client, recorder: recorder, recordFile: recordFile, publisher: publisher,
            temporaryDirectory: temporary, notice: notice)
    }

    // MARK: Running

    /// Opens the dashboard on the live traffic until `q`; returns the process exit status.
    public func runDashboard() async throws -> Int32 {
        let (theme, themeProblem) = options.theme.resolve()
        let notes = [themeProblem, notice, publisher.map { "publishing on \($0.path)" }].compactMap { $0 }
        let app = DashboardApp.live(
            events: await client.subscribe(.dashboard, snapshot: true).batches, commands: { await self.client.perform($0) },
            theme: theme, status: notes.isEmpty ? nil : StatusMessage(notes.joined(separator: "; "), kind: themeProblem == nil ? .info : .failure))
        app.setFilter(options.filter)
        app.setReadOnly(options.readOnly)
        let traffic = Task {
            await self.runWorkload()
            if let duration = self.options.duration {
                app.setStatus("the workload finished after \(Self.seconds(duration)) s; q quits")
            }
        }
        let exit: ScreenLoop.Exit
        do {
            exit = try await app.run()
        } catch {
            traffic.cancel()
            await shutDown()
            throw error
        }
        traffic.cancel()
        await traffic.value
        await shutDown()
        return exit.status
    }

    /// Runs the traffic without a dashboard (until `--duration` passes, or SIGINT/SIGTERM) and
    /// prints the session summary; returns the process exit status (128 + N after signal N, 1
    /// when the recording could not be written).
    public func runHeadless() async throws -> Int32 {
        let subscription = client.events.subscribe(.recorder)
        let filter = options.filter
        let summary = Task {
            var summary = SessionSummary()
            var selection = filter.map { RequestSelection(filter: $0) }
            for await event in subscription {
                for kept in selection?.select(event) ?? [event] { summary.apply(kept) }
            }
            for kept in selection?.finish() ?? [] { summary.apply(kept) }
            return summary
        }
        let traffic = Task { await self.runWorkload() }
        let signalled = await TerminationSignal.wait(orUntil: traffic)
        traffic.cancel()
        await traffic.value
        // shutDown first lets the refreshes the traffic started end: they are in the summary
        // (and the recording) too.
        let recording = await shutDown()
        subscription.finish()
        let live = await summary.value
        // With --record, the summary is the recorded log's, so `cachescope replay FILE --summary`
        // prints exactly the same figures.
        var text = "Demo origin: \(origin.baseURL)\n" + (recording?.summary.text ?? live.text)
        if let recording, let recordFile { text += "Recorded \(recording.eventCount) events to \(recordFile.finalPath)\n" }
        try Console.write(text)
        // A recording that failed was reported by shutDown; the run did not do what was asked.
        let recordingFailed = recordFile != nil && recording == nil
        return signalled.map { 128 + $0 } ?? (recordingFailed ? CommandFailure.failureStatus : 0)
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

    /// Lets background refreshes finish (at most ``refreshDrainLimit``), closes the socket and
    /// the recorder (renaming the recording into place), shuts the client and the origin down,
    /// and removes a temporary store.
    @discardableResult
    private func shutDown() async -> SessionRecording? {
        await client.finishBackgroundRefreshes(within: Self.refreshDrainLimit)
        await publisher?.stop()
        var recording: SessionRecording?
        if let recorder, let recordFile {
            do {
                let closed = try await recorder.close()
                try recordFile.commit()
                recording = closed
                logger.info("recorded", metadata: ["events": "\(closed.eventCount)", "path": "\(recordFile.finalPath)"])
            } catch {
                recordFile.discard()
                CommandFailure(command: "demo", error).report()
            }
        }
        do { try await client.shutdown() } catch { logger.error("client shutdown failed", metadata: ["error": "\(error)"]) }
        do { try await origin.stop() } catch { logger.error("origin stop failed", metadata: ["error": "\(error)"]) }
        if let temporaryDirectory { try? FileManager.default.removeItem(at: temporaryDirectory) }
        return recording
    }

    // MARK: Helpers

    /// `3` for three seconds, `2.5` for two and a half.
    public static func seconds(_ duration: Duration) -> String {
        let value = duration.inSeconds
        return value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
