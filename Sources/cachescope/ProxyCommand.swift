import ArgumentParser
import CacheScopeApp
import CachingProxy
import DemoOrigin

/// `cachescope proxy --origin URL`: a caching reverse proxy in front of any HTTP origin, its
/// traffic in the live dashboard — or, with `--no-ui`, one log line per request and a summary
/// at the end.
struct ProxyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proxy",
        abstract: "Put the cache in front of any HTTP origin as a shared caching reverse proxy, and watch it live.",
        discussion: """
            Listens on 127.0.0.1:8081 unless --listen, forwards every request to --origin through an \
            RFC 9111 shared cache (s-maxage, private, Authorization, proxy-revalidate), and adds Via, \
            Age and Cache-Status (RFC 9211). Press ? in the dashboard for every key. Logs go to --log \
            (default: cachescope-proxy.log in the temporary directory). See docs/proxy.md.
            """
    )

    @Option(help: ArgumentHelp("The origin to forward to: http://HOST[:PORT] or https://HOST[:PORT], without a path.", valueName: "URL"))
    var origin: String

    @Option(help: ArgumentHelp("Address to listen on; port 0 picks a free port. Only loopback unless --allow-remote.", valueName: "HOST:PORT"))
    var listen = "127.0.0.1:8081"

    @Flag(name: .customLong("allow-remote"), help: "Allow --listen and --metrics addresses other than loopback (anyone who can reach them can use the proxy and read its metrics).")
    var allowRemote = false

    @Flag(name: .customLong("no-ui"), help: "Run without the dashboard: one line per request on stdout (common log format, outcome, reason) and the summary on Ctrl-C or SIGTERM.")
    var noUI = false

    @OptionGroup var store: StoreOptions

    @Option(name: .customLong("memory-capacity"), parsing: .unconditional, help: ArgumentHelp("The memory tier's size: bytes, or with K, M, G or T (optionally followed by B or iB: 64M, 64MiB; default 32M).", valueName: "N"))
    var memoryCapacity: String?

    @Option(name: .customLong("disk-capacity"), parsing: .unconditional, help: ArgumentHelp("The disk tier's size: bytes, or with K, M, G or T (optionally followed by B or iB; default 256M).", valueName: "N"))
    var diskCapacity: String?

    @Flag(
        name: .customLong("hits-on-event-loop"),
        help: "Answer fresh hits held in memory on the connection's event loop instead of in a task of their own (same responses, events and log; see docs/proxy.md, Performance).")
    var hitsOnEventLoop = false

    @Flag(name: .customLong("read-only"), help: "Serve what --cache-dir already holds, but store nothing new; the dashboard refuses purge and refresh.")
    var readOnly = false

    @OptionGroup var watch: WatchOptions

    @OptionGroup var metrics: MetricsOption

    /// Every option's value checked before anything starts — in `run()`, not `validate()`:
    /// ArgumentParser has looked for `--help` and unknown options by then.
    func run() async throws {
        try await reporting {
            let options = try options()
            try WatchOptions.checkTerminal(noUI: noUI)
            let session = try await ProxySession.start(options, headless: noUI)
            let status = noUI ? try await session.runHeadless() : try await session.runDashboard()
            if status != 0 { throw ExitCode(status) }
        }
    }

    /// The options with every value and path checked.
    private func options() throws -> ProxySession.Options {
        try watch.rewind.check()
        let address: ListenAddress
        do { address = try ListenAddress(parsing: listen) } catch { throw ValidationError("--listen \(error)") }
        var proxy: CachingProxyConfiguration
        do {
            proxy = CachingProxyConfiguration(origin: try ProxyOrigin(parsing: origin), host: address.host, port: address.port)
        } catch {
            throw ValidationError("--origin: \(error)")
        }
        proxy.allowRemote = allowRemote
        proxy.answersHitsOnEventLoop = hitsOnEventLoop
        if !allowRemote, !CachingProxyConfiguration.isLoopback(address.host) {
            throw ValidationError("--listen \(CachingProxyError.remoteListenNotAllowed(host: address.host))")
        }
        if proxy.forwardsToItself {
            throw ValidationError(
                "--origin \(CachingProxyError.originIsThisProxy(origin: proxy.origin.description, listen: address.description))")
        }
        let metricsAddress = try metrics.address(allowRemote: allowRemote)
        // The second bind would fail as "address already in use", blaming another process.
        if let metricsAddress, metricsAddress.listen.mayClash(with: address) {
            let what = metricsAddress.listen == address ? "is the address --listen" : "asks for the port --listen \(address)"
            throw ValidationError("--metrics \(metricsAddress.listen) \(what) serves the proxy on: give the metrics a port of their own")
        }
        if readOnly, store.cacheDir == nil {
            throw ValidationError("--read-only serves what a store already holds: give it with --cache-dir DIR")
        }
        var options = ProxySession.Options(
            proxy: proxy, cacheDirectory: try store.directory(),
            memoryCapacity: try memoryCapacity.map { try ByteCount(parsing: $0, option: "--memory-capacity").bytes } ?? 32 << 20,
            diskCapacity: try diskCapacity.map { try ByteCount(parsing: $0, option: "--disk-capacity").bytes } ?? 256 << 20,
            readOnly: readOnly, theme: try watch.theme.choice(),
            record: try watch.recordPath(), publish: watch.publishes, log: try watch.log.path(),
            metrics: metricsAddress, sharedTier: try store.sharedTierConfiguration())
        options.rewindEvents = watch.rewind.rewindEvents
        options.tagField = try store.tagField()
        options.publishPath = try watch.publishSocketPath()
        return options
    }
}
