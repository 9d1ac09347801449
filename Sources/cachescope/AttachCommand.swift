import ArgumentParser
import CacheScopeApp
import CacheAttach
import Dashboard
import Foundation
import TerminalUI

/// `cachescope attach [SOCKET]`: watch and steer another process that publishes its events.
struct AttachCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Attach the dashboard to a running app that publishes its cache events (e.g. `cachescope demo --publish`).",
        discussion: "Without SOCKET, attaches to the one live publisher found; --list shows them all."
    )

    @Argument(help: "The attach socket's path (default: the only live one found).")
    var socket: String?

    @Flag(help: "List the attach sockets found, live and stale, and exit.")
    var list = false

    @Option(help: ArgumentHelp("A built-in theme or a theme file path.", valueName: "NAME|PATH"))
    var theme: String?

    func validate() throws {
        if !list {
            do { try Terminal.checkInteractive() } catch { throw ValidationError(error.description) }
        }
    }

    func run() async throws {
        if list {
            let targets = AttachClient.discover()
            if targets.isEmpty { print("no attach sockets found; start one with `cachescope demo --publish`") }
            for target in targets { print(target) }
            return
        }
        let client = try await AttachClient.connect(path: socket)
        defer { client.close() }
        let (theme, themeProblem) = DemoSession.theme(theme)
        let app = DashboardApp.attached(
            process: client.server.process, events: client.events, commands: { try await client.send($0) }, theme: theme,
            status: StatusMessage(themeProblem ?? "attached to \(client.path)", kind: themeProblem == nil ? .info : .failure))
        let exit = try await app.run()
        if exit.status != 0 { throw ExitCode(exit.status) }
    }
}
