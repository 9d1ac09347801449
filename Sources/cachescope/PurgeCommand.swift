import ArgumentParser
import CacheEvents
import CacheScopeApp
import TerminalUI
import HTTPCaching
import TrafficFilter

/// `cachescope purge (--tag NAME | --key URL | --prefix URL | --filter EXPR | --all) [SOCKET…]`:
/// purges published apps or proxies over their attach sockets.
struct PurgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Purge the cache of running apps or proxies that publish (demo --publish, proxy --publish).",
        discussion: """
            Give exactly one of --tag, --key, --prefix, --filter or --all. Each instance removes what it holds; \
            with a shared tier, the first also deletes the tier's rows and tells every other instance. \
            Without SOCKET, purges the one live publisher found. Prints one line per instance; exits 1 when one \
            could not be reached or refused.
            """
    )

    @Option(help: ArgumentHelp("Remove every entry tagged NAME (its Surrogate-Key, or the app's --tag-header).", valueName: "NAME"))
    var tag: String?

    @Option(help: ArgumentHelp("Remove every variant stored under a key: a URL or `GET https://…`.", valueName: "URL"))
    var key: String?

    @Option(help: ArgumentHelp("Remove every entry whose URL starts with PREFIX.", valueName: "URL"))
    var prefix: String?

    @Option(help: ArgumentHelp("Remove every entry the filter matches (docs/filter.md), as each instance sees its entries.", valueName: "EXPR"))
    var filter: String?

    @Flag(help: "Remove everything.")
    var all = false

    @Argument(help: "Attach sockets of the instances to purge (default: the only live one found).")
    var sockets: [String] = []

    /// Every option's value checked, before anything starts (ArgumentParser has looked for
    /// `--help` and unknown options by then).
    private func checkOptions() throws {
        _ = try command()
        try SocketArguments.validate(sockets, mayBeMissing: false)
    }

    func run() async throws {
        StandardErrorLogging.start()
        try await reporting {
            try checkOptions()
            let outcomes = await FleetPurge.send(try command(), to: sockets)
            for outcome in outcomes {
                // The filter and the instances' messages are written with their control characters escaped.
                if outcome.succeeded { try Console.write(SafeText.escape(outcome.line, backslashes: false) + "\n") } else { Console.warn("purge: \(outcome.line)") }
            }
            if outcomes.contains(where: { !$0.succeeded }) { throw ExitCode(CommandFailure.failureStatus) }
        }
    }

    /// The one purge asked for, checked.
    private func command() throws -> ClientCommand {
        let given = [tag.map { _ in "--tag" }, key.map { _ in "--key" }, prefix.map { _ in "--prefix" }, filter.map { _ in "--filter" },
                     all ? "--all" : nil].compactMap { $0 }
        guard given.count == 1 else {
            throw ValidationError(given.isEmpty
                ? "say what to purge: --tag NAME, --key URL, --prefix URL, --filter EXPR or --all"
                : "give one of \(given.joined(separator: ", ")), not several")
        }
        if let tag {
            if let problem = SurrogateKeys.problem(with: tag) { throw ValidationError("--tag \"\(tag)\": \(problem)") }
            return .purgeTag(tag: tag)
        }
        if let key {
            guard CacheKey(parsing: key) != nil else { throw ValidationError("--key \"\(key)\" is not a URL or a cache key (GET https://…)") }
            return .purge(key: key)
        }
        if let prefix {
            guard prefix.hasPrefix("http://") || prefix.hasPrefix("https://") else {
                throw ValidationError("--prefix \"\(prefix)\" must start with http:// or https:// (an entry's URL prefix)")
            }
            return .purgePrefix(prefix: prefix)
        }
        if let filter {
            do { _ = try Filter(filter) } catch { throw ValidationError("--filter '\(filter)': \(error)") }
            return .purgeFilter(filter: filter)
        }
        return .purgeAll
    }
}
