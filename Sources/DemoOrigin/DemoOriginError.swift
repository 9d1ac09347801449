// MARK: - Errors starting the origin

/// Why the demo origin could not start.
public enum DemoOriginError: Error, Equatable, CustomStringConvertible {
    /// The port is outside 0...65535.
    case invalidPort(Int)
    /// Binding `host:port` failed (port in use, address not on this machine, …).
    case cannotListen(host: String, port: Int, reason: String)

    /// A sentence saying what went wrong and what to do.
    public var description: String {
        switch self {
        case .invalidPort(let port):
            "port \(port) is out of range: use 0...65535 (0 picks a free port)"
        case .cannotListen(let host, let port, let reason):
            "cannot listen on \(host):\(port) (\(reason)); is another program using the port? "
                + "Pick another one, or port 0 for any free port"
        }
    }
}
