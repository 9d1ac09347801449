import ArgumentParser
import CacheScopeApp
import DemoOrigin
import Foundation

/// `cachescope origin --listen HOST:PORT`: runs the demo origin alone until SIGINT or SIGTERM.
struct OriginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "origin",
        abstract: "Run the demo origin alone: a loopback HTTP server with an endpoint for every caching case.",
        discussion: "Prints its URL and endpoint list, then serves until Ctrl-C (SIGINT) or SIGTERM."
    )

    @Option(help: ArgumentHelp("Address to listen on; port 0 picks a free port.", valueName: "HOST:PORT"))
    var listen = "127.0.0.1:8080"

    func validate() throws {
        do {
            _ = try ListenAddress(parsing: listen)
        } catch {
            throw ValidationError("--listen \(error)")
        }
    }

    func run() async throws {
        let address = try ListenAddress(parsing: listen)
        let origin = try await DemoOrigin.start(host: address.host, port: address.port)
        // Written unbuffered so a script or terminal reading our output sees it at once.
        let banner = "demo origin listening on \(origin.baseURL)\nendpoints:\n" + EndpointKind.listing()
            + "stop with Ctrl-C\n"
        FileHandle.standardOutput.write(Data(banner.utf8))
        _ = await TerminationSignal.wait()
        try await origin.stop()
    }
}
