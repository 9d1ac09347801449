import ArgumentParser
import CacheScopeApp

/// `cachescope demo` (the default): a demo origin, a workload, a real caching client with a
/// real disk store, and the live dashboard — or, with `--no-ui`, the same traffic and a
/// summary at the end.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Watch a caching client serve demo traffic live: hits, misses, 304s, TTLs and the store.",
        discussion: """
            Starts a demo origin on 127.0.0.1, a caching client with a disk store (in a temporary \
            directory unless --cache-dir) and a workload of every caching case, then opens the \
            dashboard. Press ? in the dashboard for every key. Logs go to --log (default: \
            cachescope-demo.log in the temporary directory).
            """
    )

    // `parsing: .unconditional` here and on the other numbers: `-1` is a value to refuse with
    // the accepted range, not an option name (ArgumentParser then said "Missing value").
    @Option(parsing: .unconditional, help: ArgumentHelp("Stop the traffic after this many seconds (with --no-ui: then print the summary and exit).", valueName: "S"))
    var duration: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Requests the workload starts per second.", valueName: "N"))
    var rate: Double = 20

    @Flag(name: .customLong("no-ui"), help: "Run without the dashboard and print a summary at the end (counts by outcome, hit ratios, bytes saved).")
    var noUI = false

    @OptionGroup var store: StoreOptions

    @OptionGroup var watch: WatchOptions

    @OptionGroup var filter: FilterOption

    @Flag(name: .customLong("read-only"), help: "In the dashboard, disable every command that changes the cache (purge, refresh, reload).")
    var readOnly = false

    @OptionGroup var stats: StatsOption

    @Flag(help: "With --no-ui and --stats-every: write JSON lines (NDJSON) instead of the summary.")
    var json = false

    @OptionGroup var metrics: MetricsOption

    @Flag(name: .customLong("allow-remote"), help: "Allow a --metrics address other than loopback (anyone who can reach it can read the metrics).")
    var allowRemote = false

    /// The longest `--duration`: a year, in seconds.
    static let longestDuration = 365 * 86_400.0

    /// Every option's value checked before anything starts — in `run()`, not `validate()`:
    /// ArgumentParser has looked for `--help` and unknown options by then.
    func run() async throws {
        try await reporting {
            let options = try options()
            try WatchOptions.checkTerminal(noUI: noUI)
            let session = try await DemoSession.start(options)
            let status = noUI ? try await session.runHeadless() : try await session.runDashboard()
            FilterOption.reportGiveUp(options.filter)
            if status != 0 { throw ExitCode(status) }
        }
    }

    /// The options with every value and path checked.
    private func options() throws -> DemoSession.Options {
        // Before the conversion to a `Duration`.
        if let duration, !(duration > 0 && duration <= Self.longestDuration) {
            throw ValidationError("--duration must be a positive number of seconds up to \(Int(Self.longestDuration)) (a year), not \(duration)")
        }
        guard rate > 0, rate <= 10_000 else { throw ValidationError("--rate must be between 0 and 10000 requests per second, not \(rate)") }
        try watch.rewind.check()
        var options = DemoSession.Options(
            duration: duration.map { .milliseconds(Int64($0 * 1000)) }, rate: rate, cacheDirectory: try store.directory(),
            theme: try watch.theme.choice(), record: try watch.recordPath(),
            publish: watch.publishes, log: try watch.log.path(), filter: try filter.parsed(), readOnly: readOnly,
            metrics: try metrics.address(allowRemote: allowRemote),
            statsEvery: try stats.interval(json: json, jsonNeedsInterval: true, headless: noUI, requirement: "--no-ui"),
            sharedTier: try store.sharedTierConfiguration())
        options.rewindEvents = watch.rewind.rewindEvents
        options.tagField = try store.tagField()
        options.publishPath = try watch.publishSocketPath()
        return options
    }
}
