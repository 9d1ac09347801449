/// What went wrong publishing on, finding or talking to an attach socket — each with a message
/// that says what to do next.
///
/// ```swift
/// do {
///     let client = try await AttachClient.connect()
/// } catch let error as AttachError {
///     print("cachescope: \(error)")   // no CacheScope process is publishing; start one with …
/// }
/// ```
public enum AttachError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Discovery found no live socket in any of the `searched` directories; `stale` lists the
    /// sockets left behind by processes that exited.
    case noPublishers(searched: [String], stale: [String])
    /// Discovery found several live sockets and cannot guess which one is meant.
    case severalPublishers([AttachTarget])
    /// Nothing exists at the path.
    case noSuchSocket(path: String)
    /// Something that is not a socket exists at the path; it is never touched.
    case notASocket(path: String)
    /// The path is a symbolic link; attach code never follows one.
    case symbolicLink(path: String)
    /// The socket's directory is not private to the current user.
    case unsafeDirectory(path: String, problem: String)
    /// The socket's directory does not exist (it is only created for the default location).
    case missingDirectory(path: String)
    /// The socket path is longer than a Unix socket address can hold.
    case pathTooLong(path: String, limit: Int)
    /// The operating system refused access (the socket belongs to another user).
    case permissionDenied(path: String)
    /// Nothing is listening on the socket: its process exited and left it behind (stale).
    case connectionRefused(path: String)
    /// Another live process serves this socket; a server never replaces one that accepts connections.
    case alreadyInUse(path: String)
    /// The peer speaks another version of the attach protocol.
    case versionMismatch(path: String, peerVersion: Int, supportedVersion: Int)
    /// The peer did not greet like a CacheScope attach socket.
    case notAnAttachSocket(path: String, detail: String)
    /// The other side closed the connection (the app exited or stopped publishing).
    case closedByPeer(path: String)
    /// This client was closed with ``AttachClient/close()``.
    case closed(path: String)
    /// No answer came in time.
    case timedOut(path: String, waitingFor: String, seconds: Double)
    /// A system call failed.
    case system(call: String, path: String, message: String)
    /// A command longer than the app reads in one line (a key or filter of tens of kilobytes);
    /// it is not sent.
    case commandTooLong(path: String, command: String, bytes: Int, limit: Int)

    /// The message for a status line or standard error.
    public var description: String {
        switch self {
        case .noPublishers(let searched, let stale):
            let staleNote = stale.isEmpty
                ? ""
                : " (only stale sockets left by exited processes: \(stale.joined(separator: ", ")))"
            return "no CacheScope process is publishing\(staleNote); start one with `cachescope demo --publish` "
                + "(looked in \(searched.joined(separator: ", ")))"
        case .severalPublishers(let targets):
            let list = targets.map { "\($0.processName) (pid \($0.pid.map(String.init) ?? "?")): \($0.path)" }
            return "several CacheScope processes are publishing: \(list.joined(separator: "; ")); "
                + "choose one with `cachescope attach SOCKET`"
        case .noSuchSocket(let path):
            return "no socket at \(path); run `cachescope attach` without a path to list publishing processes"
        case .notASocket(let path):
            return "\(path) exists but is not a socket; CacheScope leaves it alone — choose another path or remove it"
        case .symbolicLink(let path):
            return "\(path) is a symbolic link; CacheScope does not follow links for its sockets — give the real path"
        case .unsafeDirectory(let path, let problem):
            return "refusing to use \(path): \(problem)"
        case .missingDirectory(let path):
            return "directory \(path) does not exist; create it with `mkdir -m 700 \(path)`"
        case .pathTooLong(let path, let limit):
            return "socket path \(path) is \(path.utf8.count) bytes; Unix sockets allow at most \(limit) — use a shorter path"
        case .permissionDenied(let path):
            return "permission denied for \(path): it belongs to another user; attach as the user running that process"
        case .connectionRefused(let path):
            return "nothing is listening on \(path): the process that created it has exited (stale socket); "
                + "run `cachescope attach` to list live ones"
        case .alreadyInUse(let path):
            return "\(path) is in use by a running process; stop that process or choose another path"
        case .versionMismatch(let path, let peerVersion, let supportedVersion):
            return "\(path) speaks attach protocol version \(peerVersion) but this build speaks version \(supportedVersion); "
                + "use the same CacheScope version in the app and the dashboard"
        case .notAnAttachSocket(let path, let detail):
            return "\(path) is not a CacheScope attach socket (\(detail))"
        case .closedByPeer(let path):
            return "the process behind \(path) closed the connection (it exited or stopped publishing)"
        case .closed(let path):
            return "the connection to \(path) was closed by this dashboard"
        case .timedOut(let path, let waitingFor, let seconds):
            return "no \(waitingFor) from \(path) within \(Self.format(seconds)) s; the process may be stopped or overloaded"
        case .system(let call, let path, let message):
            return "\(call) \(path) failed: \(message)"
        case .commandTooLong(let path, let command, let bytes, let limit):
            return "the \(command) command is \(bytes) bytes long, and \(path) reads commands of at most \(limit) bytes: shorten its key or filter"
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
