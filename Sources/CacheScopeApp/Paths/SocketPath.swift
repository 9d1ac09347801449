import SystemPackage

/// An attach socket named on the command line (`cachescope attach SOCKET`), checked before
/// connecting: something exists there and it is a socket.
///
/// Whether a process listens on it is the connection's to find out.
public struct SocketPath: Sendable, Hashable, CustomStringConvertible {
    /// The path as given.
    public let path: String

    /// Checks `path`. With `mayBeMissing` (one of several sockets, whose app may be starting
    /// or restarting: it is tried again) nothing there is accepted; anything but a socket is not.
    /// - Throws: ``PathError`` naming the path and the problem.
    public init(_ path: String, option: String, mayBeMissing: Bool = false) throws(PathError) {
        // As the attach client refuses it, but here, for every socket of several at once too
        // (a fleet retried such a path for ever, the reason nowhere to be seen).
        if FileProbe.isSymbolicLink(path) { throw .symbolicLinkToSocket(path: path) }
        switch try FileProbe.entry(ofArgument: path, option: option) {
        case .socket: break
        case .missing: if !mayBeMissing { throw .notFound(path: path, expected: .attachSocket) }
        case .directory: throw .isDirectory(path: path, expected: .attachSocket)
        case .regularFile, .other: throw .notASocket(path: path)
        }
        self.path = path
    }

    public var description: String { path }
}
