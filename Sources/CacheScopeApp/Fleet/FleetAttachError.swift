import CacheAttach

/// Why `cachescope attach S1 S2 …` could not start, or a command could not reach an instance.
public enum FleetAttachError: Error, Sendable, CustomStringConvertible {
    /// Not one of the sockets could be attached to; each with why.
    case noneReachable([(path: String, reason: String)])
    /// The same socket was named twice.
    case duplicateSocket(path: String)
    /// A command went to an instance whose connection is down.
    case gone(name: String, path: String)
    /// A command named an instance the fleet does not have.
    case unknownInstance(UInt16)

    /// One sentence naming the socket(s) and what to do.
    public var description: String {
        switch self {
        case .noneReachable(let failures):
            let each = failures.map { "\($0.path): \($0.reason)" }.joined(separator: "; ")
            return "none of the \(failures.count) attach sockets could be reached (\(each)); "
                + "start the apps (e.g. `cachescope demo --publish`) or check the paths with `cachescope attach --list`"
        case .duplicateSocket(let path):
            return "\(path) is named twice; name each attach socket once"
        case .gone(let name, let path):
            return "\(name) is gone (its connection to \(path) is down); it gets commands again once it reconnects"
        case .unknownInstance(let index):
            return "no attached instance #\(index)"
        }
    }
}
