import ArgumentParser
import CacheScopeApp
import CachingProxy
import DemoOrigin

/// `cachescope origin --listen HOST:PORT`: runs the demo origin alone until SIGINT or SIGTERM.
struct OriginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "origin",
        abstract: "Run the demo origin alone: a loopback HTTP server with an endpoint for every caching case.",
        discussion: "Prints its URL and endpoint list, then serves until Ctrl-C (SIGINT) or SIGTERM."
    )

    @Option(help: ArgumentHelp("Address to listen on; port 0 picks a free port. Only loopback unless --allow-remote.", valueName: "HOST:PORT"))
    var listen = "127.0.0.1:8080"

    @Flag(name: .customLong("allow-remote"), help: "Allow a --listen address other than loopback (anyone who can reach it can make the origin build responses of up to 1 GiB in memory).")
    var allowRemote = false

    func run() async throws {
        StandardErrorLogging.start()
        try await reporting {
            let address = try listenAddress()
            let origin = try await DemoOrigin.start(host: address.host, port: address.port)
            // Written unbuffered so a script or terminal reading our output sees it at once.
            let banner = "demo origin listening on \(origin.baseURL)\nendpoints:\n" + EndpointKind.listing()
                + "stop with Ctrl-C\n"
            do {
                try Console.write(banner)
            } catch {
                try? await origin.stop()  // nowhere to say where it listens: stop serving
                throw error
            }
            _ = await TerminationSignal.wait()
            try await origin.stop()
        }
    }

    private func listenAddress() throws -> ListenAddress {
        let address: ListenAddress
        do {
            address = try ListenAddress(parsing: listen)
        } catch {
            throw ValidationError("--listen \(error)")
        }
        // The demo origin is a test fixture, not a server for a network: it builds `/large/`
        // bodies of up to 1 GiB in memory for whoever asks.
        if !allowRemote, !CachingProxyConfiguration.isLoopback(address.host) {
            throw ValidationError(
                "--listen \(address.host) is not a loopback address: anyone who can reach it could use the demo origin; add --allow-remote to allow that, or listen on 127.0.0.1")
        }
        return address
    }
}
