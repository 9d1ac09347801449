public import DemoOrigin

/// Why `--metrics` cannot serve; each message names the address and what to do.
public enum MetricsEndpointError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The address is not a loopback address and remote scrapers were not allowed.
    case remoteNotAllowed(host: String)
    /// Another process (or this one) already listens on the port.
    case portInUse(ListenAddress)
    /// The address could not be bound for another reason (not an address of this machine, a
    /// host name that does not resolve, no permission); `detail` is the system's word.
    case bindFailed(ListenAddress, detail: String)

    /// A sentence saying what is wrong and what to do.
    public var description: String {
        switch self {
        case .remoteNotAllowed(let host):
            "\(host) is not a loopback address: anyone who can reach it could read the cache's metrics; add --allow-remote to allow that, or use 127.0.0.1"
        case .portInUse(let address):
            "cannot serve metrics on \(address): the port is in use; choose another, or port 0 for any free one"
        case .bindFailed(let address, let detail):
            "cannot serve metrics on \(address): \(detail)"
        }
    }
}
