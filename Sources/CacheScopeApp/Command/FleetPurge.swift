public import CacheEvents
import CacheAttach

/// What `cachescope purge` does: sends one purge command to each published app or proxy named
/// (or to the only live one found), and says per instance what it removed or why it refused.
///
/// ```swift
/// let outcomes = await FleetPurge.send(.purgeTag(tag: "product-42"), to: [])   // discovery
/// for outcome in outcomes { print(outcome.line) }
/// ```
///
/// Each socket is attached to in turn, the command sent, the connection closed. Without
/// sockets, discovery is `cachescope attach`'s: exactly one live publisher, or an error that
/// lists them.
public enum FleetPurge {
    /// One instance's answer.
    public struct Outcome: Sendable, Hashable {
        /// The socket.
        public var socket: String
        /// The app's name and pid when connected (`cachescope-demo, pid 4242`).
        public var process: String?
        /// What the app answered; `nil` when it could not be asked.
        public var result: CommandResult?
        /// Why it could not be asked (no socket, refused, timed out).
        public var failure: String?

        /// Whether the instance carried the purge out.
        public var succeeded: Bool { result?.succeeded == true }

        /// `SOCKET (NAME, pid N): MESSAGE`, or `SOCKET: FAILURE`.
        public var line: String {
            let label = process.map { "\(socket) (\($0))" } ?? socket
            if let result { return "\(label): \(result.message)" }
            return "\(label): \(failure ?? "no answer")"
        }
    }

    /// How long each instance may take to connect and to answer.
    public static let timeout: Duration = .seconds(30)

    /// Sends `command` to every socket in `sockets`, or to the only live publisher when it is
    /// empty. Never throws: a socket that is missing or refuses is an outcome with a failure.
    public static func send(_ command: ClientCommand, to sockets: [String]) async -> [Outcome] {
        let paths: [String]
        if sockets.isEmpty {
            do throws(AttachError) {
                paths = [try AttachClient.chooseTarget(among: AttachClient.discover(), searched: AttachPaths.searchedDirectories).path]
            } catch .severalPublishers(let targets) {
                let list = targets.map { "\($0.processName) (pid \($0.pid.map(String.init) ?? "?")): \($0.path)" }
                return [Outcome(
                    socket: "discovery", process: nil, result: nil,
                    failure: "several CacheScope processes are publishing: \(list.joined(separator: "; ")); "
                        + "name the sockets to purge: cachescope purge … SOCKET…")]
            } catch {
                return [Outcome(socket: "discovery", process: nil, result: nil, failure: error.description)]
            }
        } else {
            paths = sockets
        }
        var outcomes: [Outcome] = []
        for path in paths { outcomes.append(await send(command, toSocket: path)) }
        return outcomes
    }

    private static func send(_ command: ClientCommand, toSocket path: String) async -> Outcome {
        let client: AttachClient
        do {
            client = try await AttachClient.connect(path: path, timeout: .seconds(5))
        } catch {
            return Outcome(socket: path, process: nil, result: nil, failure: "\(error)")
        }
        defer { client.close() }
        let process = "\(client.server.process), pid \(client.server.pid)"
        do {
            return Outcome(socket: path, process: process, result: try await client.send(command, timeout: timeout), failure: nil)
        } catch {
            return Outcome(socket: path, process: process, result: nil, failure: "\(error)")
        }
    }
}
