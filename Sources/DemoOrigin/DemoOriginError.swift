#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import ConnectionErrors
import NIOCore

// MARK: - Errors starting the origin

/// Why the demo origin could not start; each message says what to do.
public enum DemoOriginError: Error, Equatable, CustomStringConvertible {
    /// The port is outside 0...65535.
    case invalidPort(Int)
    /// Another socket already listens on `host:port`.
    case portInUse(host: String, port: Int)
    /// `host` is not an address of this machine (or does not resolve to one).
    case addressUnavailable(host: String, port: Int)
    /// Binding needs privileges this process lacks (ports below 1024 on most systems).
    case permissionDenied(host: String, port: Int)
    /// Binding failed for another reason, given as `reason`.
    case cannotListen(host: String, port: Int, reason: String)

    /// Classifies a bind failure by its errno where NIO reports one.
    static func bindFailed(host: String, port: Int, error: any Error) -> DemoOriginError {
        switch (error as? IOError)?.errnoCode {
        case EADDRINUSE: .portInUse(host: host, port: port)
        case EADDRNOTAVAIL: .addressUnavailable(host: host, port: port)
        case EACCES, EPERM: .permissionDenied(host: host, port: port)
        default: .cannotListen(host: host, port: port, reason: ConnectionFailureText.describe(error))
        }
    }

    /// A sentence saying what went wrong and what to do.
    public var description: String {
        switch self {
        case .invalidPort(let port):
            "port \(port) is out of range: use 0...65535 (0 picks a free port)"
        case .portInUse(let host, let port):
            "cannot listen on \(host):\(port): the port is in use; pick another one, or port 0 for any free port"
        case .addressUnavailable(let host, let port):
            "cannot listen on \(host):\(port): \(host) is not an address of this machine; use 127.0.0.1"
        case .permissionDenied(let host, let port):
            "cannot listen on \(host):\(port): permission denied; use a port above 1023"
        case .cannotListen(let host, let port, let reason):
            "cannot listen on \(host):\(port): \(reason); check the host name, or try 127.0.0.1 and port 0"
        }
    }
}
