import ArgumentParser
import DemoOrigin
import Dispatch
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
        await TerminationSignalWatcher().wait()
        try await origin.stop()
    }
}

/// Waits for the first SIGINT or SIGTERM, then restores the default handlers so a second
/// Ctrl-C ends the process at once should stopping hang.
///
/// `@unchecked Sendable`: `continuation` and `sources` are only touched on `queue`, a serial
/// queue that also runs the signal handlers, which is the lock that makes this safe.
private final class TerminationSignalWatcher: @unchecked Sendable {
    private let queue = DispatchQueue(label: "cachescope.origin.signals")
    private var sources: [any DispatchSourceSignal] = []
    private var continuation: CheckedContinuation<Void, Never>?

    func wait() async {
        await withCheckedContinuation { continuation in
            queue.async {
                self.continuation = continuation
                for number in [SIGINT, SIGTERM] {
                    // Ignore the default action (exit) so the dispatch source receives the signal.
                    signal(number, SIG_IGN)
                    let source = DispatchSource.makeSignalSource(signal: number, queue: self.queue)
                    source.setEventHandler { self.fire() }
                    source.resume()
                    self.sources.append(source)
                }
            }
        }
    }

    /// Runs on `queue`.
    private func fire() {
        guard let continuation else { return }
        self.continuation = nil
        sources.forEach { $0.cancel() }
        sources = []
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        continuation.resume()
    }
}
