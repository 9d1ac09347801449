import ArgumentParser
import CacheScopeApp
import CacheAttach
import Dashboard
import TerminalUI

/// `cachescope attach [SOCKET…]`: watch and steer another process that publishes its events,
/// or several at once in one dashboard.
struct AttachCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Attach the dashboard to a running app that publishes its cache events (e.g. `cachescope demo --publish`).",
        discussion: """
            Without SOCKET, attaches to the one live publisher found; --list shows them all. With several \
            SOCKETs, one dashboard shows them all, with an instance column; instances that go are shown \
            as gone and reconnected when their socket accepts again.
            """
    )

    @Argument(help: "The attach sockets' paths (default: the only live one found).")
    var sockets: [String] = []

    @Flag(help: "List the attach sockets found, live and stale, and exit.")
    var list = false

    @Flag(name: .customLong("read-only"), help: "Watch only: disable every command that changes the cache (purge, refresh, reload).")
    var readOnly = false

    @Flag(name: .customLong("no-ui"), help: "Watch without the dashboard: print the summary when the publisher stops or on Ctrl-C.")
    var noUI = false

    @OptionGroup var stats: StatsOption

    @Flag(help: "With --no-ui and --stats-every: write JSON lines (NDJSON) instead of the summary.")
    var json = false

    @OptionGroup var theme: ThemeOption

    @OptionGroup var log: LogOption

    @OptionGroup var rewind: RewindOption

    /// Every option's value checked, before anything starts (ArgumentParser has looked for
    /// `--help` and unknown options by then).
    private func checkOptions() throws {
        try SocketArguments.validate(sockets, mayBeMissing: sockets.count > 1)
        _ = try theme.choice()
        _ = try log.path()
        _ = try statsInterval()
        try rewind.check()
    }

    func run() async throws {
        try await reporting {
            try checkOptions()
            if !list { try WatchOptions.checkTerminal(noUI: noUI) }
            if list {
                let targets = AttachClient.discover()
                if targets.isEmpty { try Console.write("no attach sockets found; start one with `cachescope demo --publish`\n") }
                for target in targets { try Console.write("\(target)\n") }
                return
            }
            let logProblem = try log.start(command: "attach")
            if sockets.count > 1 { return try await runFleet(logProblem: logProblem) }
            let client = try await AttachClient.connect(path: sockets.first)
            defer { client.close() }
            if noUI {
                let stream = try statsInterval().map { try StatsStream(every: $0) }
                let status = try await HeadlessWatch.run(client.events, stats: stream)
                if status != 0 { throw ExitCode(status) }
                return
            }
            let (theme, themeProblem) = try self.theme.choice().resolve()
            let app = DashboardApp.attached(
                process: client.server.process, events: client.events, commands: { try await client.send($0) }, theme: theme,
                status: StatusMessage(
                    [themeProblem, logProblem].compactMap { $0 }.first
                        ?? "attached to \(client.server.process) (pid \(client.server.pid)) at \(client.path)",
                    kind: themeProblem == nil && logProblem == nil ? .info : .failure),
                rewindEvents: rewind.rewindEvents)
            app.setReadOnly(readOnly)
            let exit = try await app.run()
            if exit.status != 0 { throw ExitCode(exit.status) }
        }
    }

    /// Several sockets: one dashboard (or one headless watch) over all of them.
    private func runFleet(logProblem: String?) async throws {
        let fleet = try await FleetAttach.connect(paths: sockets)
        defer { fleet.close() }
        if noUI {
            let stream = try statsInterval().map { try StatsStream(every: $0) }
            stream?.setInstances(fleet.roster)
            fleet.onChange { roster, _ in stream?.setInstances(roster) }
            let status = try await HeadlessWatch.run(fleet.events, stats: stream)
            if status != 0 { throw ExitCode(status) }
            return
        }
        let (theme, themeProblem) = try self.theme.choice().resolve()
        let app = fleet.dashboard(
            theme: theme, status: (themeProblem ?? logProblem).map { StatusMessage($0, kind: .failure) },
            rewindEvents: rewind.rewindEvents)
        app.setReadOnly(readOnly)
        let exit = try await app.run()
        if exit.status != 0 { throw ExitCode(exit.status) }
    }

    /// `--stats-every`, checked: it needs `--no-ui --json`.
    private func statsInterval() throws -> Double? {
        try stats.interval(json: json, jsonNeedsInterval: true, headless: noUI, requirement: "--no-ui")
    }
}
