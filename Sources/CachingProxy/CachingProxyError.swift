/// Why a ``CachingProxy`` could not be set up. Each message names the value concerned and what
/// to do about it.
public enum CachingProxyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The origin URL cannot be used; `problem` says why.
    case invalidOrigin(String, problem: String)
    /// The listening address is not a loopback address and remote clients were not allowed.
    case remoteListenNotAllowed(host: String)
    /// A limit in the configuration is out of range.
    case invalidLimit(name: String, value: Int)
    /// The proxy's name cannot be written in `Via` and `Cache-Status`.
    case invalidName(String)
    /// The origin is the proxy's own listening address: every request would come back to it.
    case originIsThisProxy(origin: String, listen: String)
    /// The address could not be bound (in use, not an address of this machine, no permission).
    case bindFailed(host: String, port: Int, detail: String)

    /// A sentence saying what is wrong and what to do.
    public var description: String {
        switch self {
        case .invalidOrigin(let text, let problem):
            "cannot proxy to '\(text)': \(problem)"
        case .remoteListenNotAllowed(let host):
            "\(host) is not a loopback address: anyone who can reach it could use the proxy; add --allow-remote to allow that, or listen on 127.0.0.1"
        case .invalidLimit(let name, let value):
            "\(name) must be a positive number, not \(value)"
        case .invalidName(let name):
            "'\(name)' cannot name the proxy: use a letter followed by letters, digits or -._:/ (a structured-field token)"
        case .originIsThisProxy(let origin, let listen):
            "\(origin) is this proxy's own address (it listens on \(listen)): every request would be forwarded back to the proxy itself; give --origin the server to cache, or --listen another port"
        case .bindFailed(let host, let port, let detail):
            "cannot listen on \(host):\(port): \(detail)"
        }
    }
}
