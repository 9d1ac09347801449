import ArgumentParser
import CacheAttach
import CacheScopeApp
import TerminalUI

/// The options of the commands that watch a live client (`demo`, `proxy`): the dashboard's
/// theme, `--record`, `--publish`, `--log` and `--rewind-events`.
struct WatchOptions: ParsableArguments {
    @OptionGroup var theme: ThemeOption

    @Option(help: ArgumentHelp(
        "Record every event to this session log (JSON Lines, mode 0600) for `cachescope replay`; written whole at the end.",
        valueName: "FILE"))
    var record: String?

    @Flag(help: "Publish the events on an attach socket so `cachescope attach` can watch and steer this process.")
    var publish = false

    @Option(
        name: .customLong("publish-socket"),
        help: ArgumentHelp(
            "Publish on this socket path instead of the default one (implies --publish); its directory must exist and be private (0700). A restarted app keeps its path, so `cachescope attach` over several sockets reconnects to it.",
            valueName: "PATH"))
    var publishSocket: String?

    /// Whether to publish: `--publish` or `--publish-socket`.
    var publishes: Bool { publish || publishSocket != nil }

    @OptionGroup var log: LogOption

    @OptionGroup var rewind: RewindOption

    /// The checked `--record`, or `nil` when not given.
    /// - Throws: `PathError` (a usage error).
    func recordPath() throws -> OutputPath? {
        try record.map { try OutputPath($0, kind: .sessionLog, option: "--record") }
    }

    /// The checked `--publish-socket`, or `nil` when not given.
    /// - Throws: `ValidationError` naming the path and the problem (a usage error).
    func publishSocketPath() throws -> String? {
        guard let publishSocket else { return nil }
        do { try AttachServer.checkPath(publishSocket) } catch { throw ValidationError("--publish-socket: \(error)") }
        return publishSocket
    }

    /// Refuses to open the dashboard without a terminal, saying how to run without one.
    static func checkTerminal(noUI: Bool) throws {
        guard !noUI else { return }
        do { try Terminal.checkInteractive() } catch {
            throw ValidationError("\(error), or add --no-ui to run without the dashboard")
        }
    }
}
