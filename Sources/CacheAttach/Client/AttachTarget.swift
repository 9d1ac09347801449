/// A socket found by ``AttachClient/discover()``: which process published it and whether it is
/// still there.
public struct AttachTarget: Sendable, Hashable, CustomStringConvertible {
    /// Whether anything answers on the socket.
    public enum State: String, Sendable, Hashable {
        /// A process accepts connections: attach to it.
        case live
        /// Nothing listens: the process exited (or was killed) and left the socket behind. A new
        /// server at the same path removes it.
        case stale
        /// The operating system refused the connection (another user's socket).
        case denied
    }

    /// The socket's path.
    public var path: String
    /// The process name from the socket's name (`myapp` in `myapp-4242.sock`).
    public var processName: String
    /// The process ID from the socket's name, when it follows the `<process>-<pid>.sock` pattern.
    public var pid: Int32?
    /// Whether the socket is live.
    public var state: State

    /// Creates a target.
    public init(path: String, processName: String, pid: Int32?, state: State) {
        self.path = path
        self.processName = processName
        self.pid = pid
        self.state = state
    }

    /// Whether a process accepts connections on the socket.
    public var isLive: Bool { state == .live }

    /// One line for a listing: `myapp (pid 4242)  live  /run/user/1000/cachescope/myapp-4242.sock`.
    public var description: String {
        let process = pid.map { "\(processName) (pid \($0))" } ?? processName
        return "\(process)  \(state.rawValue)  \(path)"
    }
}
