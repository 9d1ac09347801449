import ArgumentParser
import CacheScopeApp
#if canImport(Glibc)
import Glibc
#endif

/// The `cachescope` command: the root that dispatches to one subcommand per job.
@main
struct CacheScopeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cachescope",
        abstract: "See and steer HTTP caching: an RFC 9111 caching client and its live dashboard.",
        version: CacheScopeVersion.current,
        subcommands: [
            DemoCommand.self, GetCommand.self, ReplayCommand.self, ExportCommand.self, AttachCommand.self,
            OriginCommand.self, ProxyCommand.self, PurgeCommand.self,
        ],
        defaultSubcommand: DemoCommand.self
    )

    /// Runs the command named on the command line, with standard input, output and error open.
    static func main() async {
        StandardDescriptors.ensureOpen()
        // A closed pipe is a write that fails (`cannot write to standard output: broken pipe`,
        // status 1), whatever path wrote, not a SIGPIPE that ends the process silently (141).
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            // A subcommand's validation failure, kept unreported while ArgumentParser looked
            // for --help (which it then shows instead): one line, as every failure.
            if exitCode(for: error) != .success, let failure = PendingUsageFailure.take() {
                failure.report()
                Self.exit(withError: ExitCode(failure.status))
            }
            Self.exit(withError: error)
        }
    }
}
