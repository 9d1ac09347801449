import ArgumentParser
import CacheScopeApp
import CacheEvents
import SessionLog
import CachingClient
import Dashboard
import HTTPCaching
import TerminalUI
import TrafficFilter

/// `cachescope replay FILE`: a recorded session log — or a browser's HAR capture run through
/// the caching engine — in the dashboard, or summarised with `--summary`.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a session log or a HAR capture in the dashboard, or print its summary.",
        discussion: """
            Which of the two FILE is comes from its first bytes, not its name. A HAR file (as browsers' \
            DevTools save it) is run through CacheScope's real caching engine in simulated time: the \
            responses come from the capture, and the replay shows which requests would have been hits, \
            revalidations or misses, and why. In the dashboard: Space plays and pauses, < > halve and \
            double the speed, [ ] step one event, ← → seek 10 s, 0–9 seek to 0–90 %, $ the end. \
            With --what-if, the recorded origin answers are run through a cache configured differently \
            and the two runs are printed side by side.
            """
    )

    @Argument(help: "A session log written with --record, or a HAR capture.")
    var file: String

    @Option(parsing: .unconditional, help: "Playback speed: a multiplier from 1/16 to 64 (e.g. 0.25, 2, 8x) or 'max'.")
    var speed: String = "1"

    @Flag(help: "Print counts by outcome, hit ratios, bytes saved, top missed URLs and top evicted keys instead of opening the dashboard.")
    var summary = false

    @Flag(help: "With --summary: print the summary as one JSON object (with --stats-every: one per interval).")
    var json = false

    @OptionGroup var stats: StatsOption

    @Flag(name: .customLong("shared"), help: "For a HAR capture: simulate a shared cache (a CDN or proxy) instead of a browser's private cache. With --what-if: the recorded cache was a shared one.")
    var sharedCache = false

    @Option(
        name: .customLong("what-if"), parsing: .upToNextOption,
        help: ArgumentHelp(
            "Print how a cache configured differently would have done, beside the recording. Keys: \(WhatIfChanges.keyList).",
            valueName: "KEY=VALUE"))
    var whatIf: [String] = []

    @OptionGroup var filter: FilterOption

    @OptionGroup var theme: ThemeOption

    @OptionGroup var log: LogOption

    /// Every option's value checked, before anything starts (ArgumentParser has looked for
    /// `--help` and unknown options by then).
    private func checkOptions() throws {
        _ = try filter.parsed()
        _ = try input()
        _ = try theme.choice()
        _ = try log.path()
        if json, !summary { throw ValidationError("--json goes with --summary") }
        _ = try statsInterval()
        _ = try replaySpeed()
        if !whatIf.isEmpty {
            _ = try WhatIfChanges(parsing: whatIf)
            if summary { throw ValidationError("--what-if prints its own comparison; leave out --summary") }
            if filter.filter != nil { throw ValidationError("--what-if runs every recorded request; leave out --filter") }
            return
        }
    }

    func run() async throws {
        try await reporting {
            try checkOptions()
            if !whatIf.isEmpty {
                let report = try await WhatIfReplay.run(try input(), changes: try WhatIfChanges(parsing: whatIf), shared: sharedCache)
                try Console.write(report.text)
                return
            }
            if !summary {
                do { try Terminal.checkInteractive() } catch {
                    throw ValidationError("\(error), or print the summary with --summary")
                }
            }
            let loaded = try await ReplaySource.load(try input(), mode: sharedCache ? .shared : .private)
            for warning in loaded.warnings.prefix(20) { Console.warn("\(warning)") }
            if loaded.warnings.count > 20 { Console.writeError("cachescope: … and \(loaded.warnings.count - 20) more\n") }
            if summary {
                let parsed = try filter.parsed()
                let events = parsed.map { RequestSelection.select(loaded.events, filter: $0) } ?? loaded.events
                defer { FilterOption.reportGiveUp(parsed) }
                if let interval = try statsInterval() {
                    let stream = try StatsStream(every: interval)
                    for event in events {
                        stream.applyRecorded(event)
                        if stream.failure != nil { break }  // nowhere to write the rest
                    }
                    stream.finish(live: false)
                    try stream.checkWritten()
                    return
                }
                let summary = SessionSummary(folding: events)
                let output = json ? try summary.jsonString() : summary.text
                try Console.write(output.hasSuffix("\n") ? output : output + "\n")
                return
            }
            let logProblem = try log.start(command: "replay")
            let (theme, themeProblem) = try self.theme.choice().resolve()
            var replayer = SessionReplayer<TrafficModel>(events: loaded.events, speed: try replaySpeed())
            replayer.play()
            let notes = [themeProblem, logProblem, loaded.note].compactMap { $0 }
            let app = DashboardApp.replay(
                replayer, theme: theme,
                status: notes.isEmpty ? nil : StatusMessage(notes.joined(separator: "; "), kind: themeProblem == nil ? .info : .failure))
            app.setFilter(try filter.parsed())
            let exit = try await app.run()
            if exit.status != 0 { throw ExitCode(exit.status) }
        }
    }

    /// `--stats-every`, checked: it needs `--summary --json`.
    private func statsInterval() throws -> Double? {
        try stats.interval(json: json, jsonNeedsInterval: false, headless: summary, requirement: "--summary --json")
    }

    private func input() throws -> InputPath {
        try InputPath(file, kind: .sessionLogOrHAR, option: "FILE")
    }

    private func replaySpeed() throws -> ReplaySpeed {
        guard let speed = ReplaySpeed(parsing: speed) else {
            throw ValidationError("--speed must be a power of two from 1/16 to 64 (1/16, 1/8, 1/4, 1/2, 1, 2, 4, 8, 16, 32, 64; also 0.5 or 8x), the steps < and > move by, or 'max', not \"\(speed)\"")
        }
        return speed
    }
}
