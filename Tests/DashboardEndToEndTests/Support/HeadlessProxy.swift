import DemoOrigin
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `cachescope proxy --no-ui` in front of an origin, started as a user starts it, its output
/// (banner, access log, summary) in a file.
struct HeadlessProxy {
    /// The running process.
    let child: Spawn.Child
    /// The proxy's base URL, as its banner names it.
    let url: String
    /// The word after each of the prefixes `start` was asked to read in the banner.
    let named: [String: String]

    /// Why a proxy could not be had.
    struct SetupFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts the real binary with `extra` options, loopback addresses on free ports and its
    /// log in `directory`, and waits (at most 30 s) for a banner that names its URL and the
    /// word after each of `prefixes` (`"metrics on "`, `"; publishing on "`). `shellSetUp`:
    /// shell commands run first, in the process that then becomes the proxy (`ulimit -f 64`).
    /// `launcher`: what runs the binary (``Binary/asAUser``).
    static func start(
        origin: DemoOrigin, directory: TemporaryDirectory, extra: [String] = [], naming prefixes: [String] = [],
        shellSetUp: String? = nil, launcher: [String] = []
    ) async throws -> HeadlessProxy {
        guard let binary = Binary.path else { throw Binary.SetupError.binaryNotFound }
        let name = "proxy-\(UUID().uuidString)"
        let output = directory.path(name + ".out")
        let command = launcher + [binary, "proxy", "--origin", origin.baseURL, "--listen", "127.0.0.1:0", "--no-ui", "--log", directory.path(name + ".log")]
            + extra
        let child = try Spawn.start(shellSetUp.map { ["/bin/sh", "-c", $0 + #"; exec "$@""#, "sh"] + command } ?? command, outputPath: output)
        let found = try await Banner.wait(in: output) { text -> (String, [String: String])? in
            guard let url = Banner.word(after: "cachescope proxy on ", in: text) else { return nil }
            var named: [String: String] = [:]
            for prefix in prefixes {
                guard let word = Banner.word(after: prefix, in: text) else { return nil }
                named[prefix] = word
            }
            return (url, named)
        }
        guard let (url, named) = found else {
            kill(child.pid, SIGTERM)
            let (_, text) = await child.wait(timeout: .seconds(20))
            throw SetupFailure(
                description: "no banner naming the proxy's URL and \(prefixes) from `cachescope proxy --no-ui \(extra.joined(separator: " "))`: \(text)")
        }
        return HeadlessProxy(child: child, url: url, named: named)
    }
}
