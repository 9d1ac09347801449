import CacheAttach
import CacheEvents
import CacheMetrics
import CacheStore
import CachingClient
import Dashboard
import Foundation
import Logging
import SessionLog
import TerminalUI
import TrafficFilter

/// What every live command — `demo`, `proxy` — runs around its caching client: the log file,
/// the store's directory (a temporary one unless `--cache-dir`), the optional recorder, attach
/// server and metrics endpoint; the dashboard or the headless summary; and the shut-down that
/// closes them in order.
///
/// The command supplies only its traffic: `demo` a workload against the demo origin, `proxy`
/// a server that forwards clients' requests.
final class WatchedClient: Sendable {
    /// How long shutting down waits for stale-while-revalidate refreshes still in flight.
    static let refreshDrainLimit: Duration = .seconds(3)

    /// The command's name in messages (`demo`).
    let command: String
    let client: CachingClient
    let recorder: SessionRecorder?
    /// The temporary file the recorder writes, renamed over `--record`'s path at the end.
    let recordFile: StagedFile?
    let publisher: AttachServer?
    /// `--metrics`: the client's metrics and where Prometheus scrapes them.
    let metrics: (reporting: CacheMetrics, endpoint: MetricsEndpoint)?
    /// The store's directory when it is temporary (removed at the end).
    let temporaryDirectory: URL?
    /// A message for the status line about start-up problems that were worked around.
    let notice: String?
    /// What to say of recordings earlier runs killed with SIGKILL left beside `--record`'s
    /// path (``OutputPath/leftoverStagedFiles``): on the status line, or on stderr.
    let leftoverNote: String?
    /// `--filter`: what the dashboard opens filtered by, the recording keeps and the headless
    /// summary counts (whole matching requests); `nil`: everything.
    let filter: Filter?
    private let logger: Logger

    private init(
        command: String, client: CachingClient, recorder: SessionRecorder?, recordFile: StagedFile?, publisher: AttachServer?,
        metrics: (reporting: CacheMetrics, endpoint: MetricsEndpoint)?, temporaryDirectory: URL?, notice: String?, filter: Filter?,
        leftoverNote: String?
    ) {
        self.filter = filter
        self.leftoverNote = leftoverNote
        self.command = command
        self.client = client
        self.recorder = recorder
        self.recordFile = recordFile
        self.publisher = publisher
        self.metrics = metrics
        self.temporaryDirectory = temporaryDirectory
        self.notice = notice
        logger = Logger(label: "cachescope.\(command)")
    }

    /// Starts logging, the metrics endpoint, the store's directory, the client (made by
    /// `configuration` from the store's directory), its metrics, the recorder and the attach
    /// server. With `readOnly` (`--read-only`) the attach server refuses every command, as
    /// the dashboard does, with a reply saying why.
    /// - Throws: ``PathError`` when the store's directory or the recording's temporary file
    ///   cannot be created; ``MetricsEndpointError``; the store's or the attach server's errors.
    static func start(
        command: String, cacheDirectory: DirectoryPath?, record: OutputPath?, publish: Bool, publishPath: String? = nil,
        log: OutputPath?, filter: Filter? = nil, metrics metricsAddress: MetricsEndpoint.Address? = nil, readOnly: Bool = false,
        configuration: (URL) -> CachingClientConfiguration
    ) async throws -> WatchedClient {
        let notice = FileLogging.start(log, command: command)
        // The metrics' port first: what cannot be had fails before anything runs (the record
        // path was checked when parsed, `OutputPath`). The recording's file is made once the
        // store is open: opening a large store can take seconds, and a Ctrl-C then (before
        // signals are handled) must leave no temporary file behind.
        var recordFile: StagedFile?
        var leftovers: [String] = []
        // What has started so far, for the one clean-up below.
        var endpoint: MetricsEndpoint?
        var temporary: URL?
        var client: CachingClient?
        var reporting: CacheMetrics?
        var recorder: SessionRecorder?
        do {
            if let metricsAddress { endpoint = try await MetricsEndpoint.start(at: metricsAddress) }
            let directory: URL
            if let store = cacheDirectory {
                try store.create()
                directory = store.url
            } else {
                AbandonedStores.sweep()
                directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachescope-\(command)-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                temporary = directory
            }
            let started = try await CachingClient(configuration: configuration(directory))
            client = started
            let metrics = endpoint.map { endpoint in
                let reporting = CacheMetrics(
                    events: started.events, storeStats: started.store.stats(),
                    factory: endpoint.exposition)
                return (reporting: reporting, endpoint: endpoint)
            }
            reporting = metrics?.reporting
            leftovers = record?.leftoverStagedFiles ?? []
            recordFile = try record?.stage()
            if let recordFile {
                // The log starts with what is stored, so a replay's Entries view is complete.
                recorder = try SessionRecorder(
                    bus: started.events, path: recordFile.temporaryPath, configuration: SessionRecorder.Configuration(filter: filter),
                    initial: await started.snapshotEvents())
            }
            let publisher = publish
                ? try await AttachServer.start(
                    events: started.events, snapshot: { await started.snapshotEvents() },
                    commands: { [appName = "cachescope \(command)"] request in
                        guard !readOnly else { return readOnlyRefusal(request, runningAs: appName) }
                        return await started.perform(request)
                    },
                    path: publishPath, processName: "cachescope-\(command)")
                : nil
            return WatchedClient(
                command: command, client: started, recorder: recorder, recordFile: recordFile, publisher: publisher, metrics: metrics,
                temporaryDirectory: temporary, notice: notice, filter: filter, leftoverNote: leftoverNote(leftovers))
        } catch {
            // Everything started so far is stopped before the error is reported: a client
            // released while running is a trap in AsyncHTTPClient, not an error message.
            _ = try? await recorder?.close()
            await reporting?.stop()
            await endpoint?.stop()
            try? await client?.shutdown()
            recordFile?.discard()
            if let temporary { try? FileManager.default.removeItem(at: temporary) }
            throw error
        }
    }

    /// The reply of a `--read-only` app to a command from an attached dashboard or
    /// `cachescope purge`.
    static func readOnlyRefusal(_ command: ClientCommand, runningAs name: String) -> CommandResult {
        CommandResult(
            succeeded: false,
            message: "\(command.name) refused: \(name) runs with --read-only, which disables every command that changes the cache")
    }

    /// The note for ``leftoverNote``; `nil` when there is nothing to say.
    private static func leftoverNote(_ paths: [String]) -> String? {
        guard let first = paths.first else { return nil }
        let more = paths.count > 1 ? " (and \(paths.count - 1) more beside it)" : ""
        return "an earlier run killed before it ended left its recording at \(first)\(more); rename it to replay it"
    }

    // MARK: Running

    /// Opens the dashboard while `traffic` runs, until `q`; then cancels the traffic and shuts
    /// down (`stopFirst` before the client closes, `stopLast` after). Returns the exit status.
    /// `readOnly` disables the dashboard's cache-changing commands (`--read-only`);
    /// `rewindEvents` is how far `←` `→` can rewind (`--rewind-events`).
    func runDashboard(
        theme choice: ThemeChoice, notes extra: [String], readOnly: Bool = false, rewindEvents: Int,
        traffic: @escaping @Sendable (DashboardApp) async -> Void,
        stopFirst: @Sendable () async -> Void = {}, stopLast: @Sendable () async -> Void = {}
    ) async throws -> Int32 {
        let (theme, themeProblem) = choice.resolve()
        let notes = [themeProblem, notice, leftoverNote, publisher.map { "publishing on \($0.path)" }, metricsNote].compactMap { $0 } + extra
        let client = self.client
        let app = DashboardApp.live(
            events: await client.subscribe(.dashboard, snapshot: true).batches, commands: { await client.perform($0) },
            theme: theme, status: notes.isEmpty ? nil : StatusMessage(notes.joined(separator: "; "), kind: themeProblem == nil ? .info : .failure),
            rewindEvents: rewindEvents)
        app.setFilter(filter)
        app.setReadOnly(readOnly)
        let running = Task { await traffic(app) }
        let exit: ScreenLoop.Exit
        do {
            exit = try await app.run()
        } catch {
            running.cancel()
            await running.value
            await shutDown(stopFirst: stopFirst, stopLast: stopLast)
            throw error
        }
        running.cancel()
        await running.value
        await shutDown(stopFirst: stopFirst, stopLast: stopLast)
        return exit.status
    }

    /// Runs `traffic` without a dashboard until it ends or SIGINT/SIGTERM/SIGHUP, shuts down, and
    /// prints `header` and the session summary — or, with `stats`, writes only its lines
    /// (NDJSON on standard output, the recording's note on standard error); returns the exit
    /// status (128 + N after signal N, 1 when the recording could not be written).
    func runHeadless(
        header: String, stats: StatsStream? = nil, traffic: @escaping @Sendable () async -> Void,
        stopFirst: @Sendable () async -> Void = {}, stopLast: @Sendable () async -> Void = {}
    ) async throws -> Int32 {
        if let leftoverNote { Console.warn("\(command): \(leftoverNote)") }
        // Starting, as a recording does, with the store's statistics and entries: the summary
        // and the stats lines then count the same events as a replay of the recording.
        let subscription = client.events.subscribe(.recorder, initial: await client.snapshotEvents())
        let filter = self.filter
        let command = self.command
        let summary = Task {
            var summary = SessionSummary()
            var selection = filter.map { RequestSelection(filter: $0) }
            for await event in subscription {
                // What goes wrong apart from any one request (the disk degraded, the shared tier
                // unreachable, the recording stopped) is said as it happens; a request's own
                // failure is in its access-log line or the summary.
                if event.requestID == nil, case .error(let info) = event.kind {
                    Console.warn("\(command): \(info.message)")
                }
                guard selection != nil else {
                    summary.apply(event)
                    stats?.apply(event)
                    continue
                }
                for kept in selection?.select(event) ?? [] {
                    summary.apply(kept)
                    stats?.apply(kept)
                }
            }
            for kept in selection?.finish() ?? [] {
                summary.apply(kept)
                stats?.apply(kept)
            }
            return summary
        }
        // Stats lines own standard output: the metrics note goes to standard error then.
        if let metricsNote {
            if stats == nil {
                do {
                    try Console.write(metricsNote + "\n")
                } catch {
                    // Nowhere to write the summary either: shut down as a start that failed (a
                    // client is never left running; an existing --record log is left alone)
                    // and say why.
                    _ = await shutDown(startFailed: true, stopFirst: stopFirst, stopLast: stopLast)
                    subscription.finish()
                    _ = await summary.value
                    throw error
                }
            } else {
                Console.writeError(metricsNote + "\n")
            }
        }
        let ticking = stats.map { stream in Task { await stream.tickUntilCancelled() } }
        let running = Task { await StatsStream.run(traffic, endingOnFailureOf: stats) }
        let signalled = await TerminationSignal.wait(orUntil: running)
        running.cancel()
        await running.value
        // shutDown first lets the refreshes the traffic started end: they are in the summary
        // (and the recording) too.
        let recording = await shutDown(stopFirst: stopFirst, stopLast: stopLast)
        subscription.finish()
        let live = await summary.value
        ticking?.cancel()
        // A recording that failed was reported by shutDown; the run did not do what was asked.
        let recordingFailed = recordFile != nil && recording == nil
        let status = signalled.map { 128 + $0 } ?? (recordingFailed ? CommandFailure.failureStatus : 0)
        let recorded = recording.flatMap { recording in
            recordFile.map { "Recorded \(recording.eventCount) events to \($0.finalPath)\n" }
        }
        if let stats {
            stats.finish(live: true)
            if let recorded { Console.writeError(recorded) }
            try stats.checkWritten(endedBy: signalled)
            return status
        }
        // With --record, the summary is the recorded log's, so `cachescope replay FILE --summary`
        // prints exactly the same figures.
        try Console.writeSummary(header + (recording?.summary.text ?? live.text) + (recorded ?? ""), endedBy: signalled)
        return status
    }

    /// Closes the recorder and renames its log into place; the recording, or `nil` after
    /// reporting why there is none. A write of the log that failed (disk full) leaves a
    /// readable log of the events before it: kept under --record's name, and said so.
    private func finishRecording(_ recorder: SessionRecorder, into recordFile: StagedFile) async -> SessionRecording? {
        let closed: SessionRecording
        do {
            closed = try await recorder.close()
        } catch {
            guard case .writeFailed(_, let reason) = error else {
                recordFile.discard()
                CommandFailure(command: command, error).report()
                return nil
            }
            do {
                try recordFile.commit()
                CommandFailure(command: command, SessionLogError.writeFailed(file: recordFile.finalPath, reason: reason)).report()
            } catch {
                CommandFailure(command: command, error).report()  // not even that could be kept: says why
            }
            return nil
        }
        do {
            // Only over what --record's check allowed at the start: nothing, or a session log.
            try recordFile.commit(replaceable: { ContentSniffer.format($0) == .sessionLog })
        } catch {
            CommandFailure(command: command, error).report()
            return nil
        }
        logger.info("recorded", metadata: ["events": "\(closed.eventCount)", "path": "\(recordFile.finalPath)"])
        return closed
    }

    /// `metrics on http://…/metrics` when `--metrics` serves them.
    private var metricsNote: String? { metrics.map { "metrics on \($0.endpoint.url)" } }

    /// Runs `stopFirst` (what still sends requests through the client), lets background
    /// refreshes finish (at most ``refreshDrainLimit``), closes the socket and the recorder
    /// (renaming the recording into place), shuts the client down (its last events still
    /// reach the metrics), stops the metrics endpoint, runs `stopLast` (what the client talked
    /// to), and removes a temporary store. `startFailed`: the command never ran (its proxy or
    /// origin could not start), so the recording is discarded and a log already at `--record`'s
    /// path is left as it was.
    @discardableResult
    func shutDown(startFailed: Bool = false, stopFirst: () async -> Void = {}, stopLast: () async -> Void = {}) async -> SessionRecording? {
        await stopFirst()
        await client.finishBackgroundRefreshes(within: Self.refreshDrainLimit)
        await publisher?.stop()
        var recording: SessionRecording?
        if startFailed {
            _ = try? await recorder?.close()
            recordFile?.discard()
        } else if let recorder, let recordFile {
            // The log ends with the store's figures at its end: a replay then knows how long the
            // session ran (its `--stats-every` lines go as far as the live run's, also when no
            // request was in flight at the end) and shows the store as it was left.
            client.events.publish(.storeStats(client.store.stats()))
            recording = await finishRecording(recorder, into: recordFile)
        }
        do { try await client.shutdown() } catch { logger.error("client shutdown failed", metadata: ["error": "\(error)"]) }
        await metrics?.reporting.stop()
        await metrics?.endpoint.stop()
        await stopLast()
        if let temporaryDirectory { try? FileManager.default.removeItem(at: temporaryDirectory) }
        return recording
    }
}
