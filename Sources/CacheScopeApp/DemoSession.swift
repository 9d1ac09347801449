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

/// The objects `cachescope demo` runs — origin, client with a disk store, workload, optional
/// recorder and attach server — started together and shut down together.
///
/// Kept apart from ``DemoCommand`` so the command stays options and wiring: this file owns the
/// order of start-up and shut-down.
public final class DemoSession: Sendable {
    /// What `cachescope demo` was asked for.
    public struct Options: Sendable {
        public var duration: Duration?
        public var rate: Double
        public var cacheDirectory: String?
        public var theme: String?
        public var recordPath: String?
        public var publish: Bool
        public var logPath: String

        public init(
            duration: Duration?, rate: Double, cacheDirectory: String?, theme: String?, recordPath: String?, publish: Bool,
            logPath: String
        ) {
            self.duration = duration
            self.rate = rate
            self.cacheDirectory = cacheDirectory
            self.theme = theme
            self.recordPath = recordPath
            self.publish = publish
            self.logPath = logPath
        }
    }

    let options: Options
    let origin: DemoOrigin
    let client: CachingClient
    let recorder: SessionRecorder?
    let publisher: AttachServer?
    /// The store's directory when it is temporary (removed at the end).
    let temporaryDirectory: URL?
    /// A message for the status line about start-up problems that were worked around.
    let notice: String?
    private let logger = Logger(label: "cachescope.demo")

    private init(
        options: Options, origin: DemoOrigin, client: CachingClient, recorder: SessionRecorder?, publisher: AttachServer?,
        temporaryDirectory: URL?, notice: String?
    ) {
        self.options = options
        self.origin = origin
        self.client = client
        self.recorder = recorder
        self.publisher = publisher
        self.temporaryDirectory = temporaryDirectory
        self.notice = notice
    }

    /// Starts everything but the traffic.
    public static func start(_ options: Options) async throws -> DemoSession {
        var notice: String?
        do {
            try FileLogHandler.bootstrap(path: options.logPath, level: .info)
        } catch {
            notice = "logging is off: \(error)"
        }
        let origin = try await DemoOrigin.start(host: "127.0.0.1", port: 0)
        let directory: URL
        var temporary: URL?
        if let path = options.cacheDirectory {
            directory = URL(fileURLWithPath: path)
        } else {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachescope-demo-\(UUID().uuidString)")
            temporary = directory
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = CachingClientConfiguration()
        configuration.store = StoreConfiguration(memoryCapacity: 4 << 20, diskCapacity: 64 << 20, directory: directory)
        let client = try await CachingClient(configuration: configuration)
        var recorder: SessionRecorder?
        if let path = options.recordPath {
            // The log starts with what is stored, so a replay's Entries view is complete.
            recorder = try SessionRecorder(bus: client.events, path: path, initial: await client.snapshotEvents())
        }
        let publisher = options.publish
            ? try await AttachServer.start(
                events: client.events, snapshot: { await client.snapshotEvents() }, commands: { await client.perform($0) },
                processName: "cachescope-demo")
            : nil
        return DemoSession(
            options: options, origin: origin, client: client, recorder: recorder, publisher: publisher,
            temporaryDirectory: temporary, notice: notice)
    }

    // MARK: Running

    /// Opens the dashboard on the live traffic until `q`; returns the process exit status.
    public func runDashboard() async throws -> Int32 {
        let (theme, themeProblem) = Self.theme(options.theme)
        let notes = [themeProblem, notice, publisher.map { "publishing on \($0.path)" }].compactMap { $0 }
        let app = DashboardApp.live(
            events: await client.subscribe(.dashboard, snapshot: true).batches, commands: { await self.client.perform($0) },
            theme: theme, status: notes.isEmpty ? nil : StatusMessage(notes.joined(separator: "; "), kind: themeProblem == nil ? .info : .failure))
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
    /// prints the session summary; returns the process exit status.
    public func runHeadless() async throws -> Int32 {
        let subscription = client.events.subscribe(.recorder)
        let summary = Task {
            var summary = SessionSummary()
            for await event in subscription { summary.apply(event) }
            return summary
        }
        let traffic = Task { await self.runWorkload() }
        let signalled = await TerminationSignal.wait(orUntil: traffic)
        traffic.cancel()
        await traffic.value
        subscription.finish()
        let live = await summary.value
        let recording = await shutDown()
        // With --record, the summary is the recorded log's, so `cachescope replay FILE --summary`
        // prints exactly the same figures.
        var text = "Demo origin: \(origin.baseURL)\n" + (recording?.summary.text ?? live.text)
        if let recording { text += "Recorded \(recording.eventCount) events to \(recording.path)\n" }
        FileHandle.standardOutput.write(Data(text.utf8))
        return signalled.map { 128 + $0 } ?? 0
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

    /// Closes the recorder and the socket, shuts the client and the origin down, and removes
    /// a temporary store.
    @discardableResult
    private func shutDown() async -> SessionRecording? {
        await publisher?.stop()
        var recording: SessionRecording?
        if let recorder {
            do {
                recording = try await recorder.close()
                logger.info("recorded", metadata: ["events": "\(recording!.eventCount)", "path": "\(recording!.path)"])
            } catch {
                FileHandle.standardError.write(Data("cachescope: \(error)\n".utf8))
            }
        }
        do { try await client.shutdown() } catch { logger.error("client shutdown failed", metadata: ["error": "\(error)"]) }
        do { try await origin.stop() } catch { logger.error("origin stop failed", metadata: ["error": "\(error)"]) }
        if let temporaryDirectory { try? FileManager.default.removeItem(at: temporaryDirectory) }
        return recording
    }

    // MARK: Helpers

    /// The theme to start with, and why it is not the one asked for (a broken theme file: the
    /// dashboard starts with `default` and says so on the status line).
    public static func theme(_ option: String?) -> (Theme, String?) {
        do {
            return (try ThemeLoader.resolve(option: option), nil)
        } catch {
            let fallback = (try? ThemeLoader.builtIn(named: ThemeLoader.defaultName))
                ?? Theme(name: ThemeLoader.defaultName, usesColor: false, styles: [:])
            return (fallback, "started with the default theme: \(error)")
        }
    }

    public static func seconds(_ duration: Duration) -> String {
        let value = duration.inSeconds
        return value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
