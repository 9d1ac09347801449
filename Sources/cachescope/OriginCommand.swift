import ArgumentParser
import CacheScopeApp
import DemoOrigin

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
        try reporting { _ = try listenAddress() }
    }

    func run() async throws {
        try await reporting {
            let address = try listenAddress()
            let origin = try await DemoOrigin.start(host: address.host, port: address.port)
            // Written unbuffered so a script or terminal reading our output sees it at once.
            let banner = "demo origin listening on \(origin.baseURL)\nendpoints:\n" + EndpointKind.listing()
                + "stop with Ctrl-C\n"
            try Console.write(banner)
            _ = await TerminationSignal.wait()
            try await origin.stop()
        }
    }

    private func listenAddress() throws -> ListenAddress {
        do {
            return try ListenAddress(parsing: listen)
        } catch {
            throw ValidationError("--listen \(error)")
        }
    }
}
