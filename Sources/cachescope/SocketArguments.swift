import ArgumentParser
import CacheScopeApp

/// The attach sockets a command names (`attach S…`, `purge … S…`), checked the same way
/// for both.
enum SocketArguments {
    /// Each path a usable socket path, and none named twice (also under another spelling:
    /// `a.sock` and `./a.sock`); `mayBeMissing`: a socket that is not there yet is allowed.
    static func validate(_ sockets: [String], mayBeMissing: Bool) throws {
        for socket in sockets { _ = try SocketPath(socket, option: "SOCKET", mayBeMissing: mayBeMissing) }
        if let (first, repeated) = FleetAttach.firstRepeatedSocket(in: sockets) {
            let same = first == repeated ? "" : " (\(first) and \(repeated) are the same path)"
            throw ValidationError("SOCKET \(repeated) is named twice\(same); name each socket once")
        }
    }
}
