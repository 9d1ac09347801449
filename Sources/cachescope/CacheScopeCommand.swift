import ArgumentParser
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
        // No subcommand validates in `validate()`: ArgumentParser runs it before it looks for
        // unknown options, and prints its errors in a form of its own; every check is at the
        // start of `run()`, reported as one line (`reporting`).
        await main(nil)
    }
}
