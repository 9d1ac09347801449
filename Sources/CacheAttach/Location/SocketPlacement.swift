/// Makes a socket path ready for `bind`: the path fits in a socket address, its directory is
/// private (created when it is the default one), and whatever sits at the path is either
/// nothing or a stale socket, which is removed. A socket that still accepts connections, a
/// symbolic link and any other kind of file are never touched.
enum SocketPlacement {
    /// Prepares `path`; `createDirectory` is true for the default location only, so a typo in
    /// an explicit path fails instead of creating directories.
    static func prepare(_ path: String, createDirectory: Bool) throws(AttachError) {
        guard path.utf8.count <= AttachPaths.maximumPathLength else {
            throw .pathTooLong(path: path, limit: AttachPaths.maximumPathLength)
        }
        let directory = AttachPaths.directory(of: path)
        if createDirectory {
            try DirectoryCheck.prepare(directory)
        } else {
            try DirectoryCheck.verify(directory)
        }
        try removeStaleSocket(at: path)
    }

    /// Checks an explicit `path` before anything starts, touching nothing: it fits in a
    /// socket address, its directory exists and is private, and nothing but a socket is there.
    /// (Whether a process still listens on a socket there is found when binding.)
    static func check(_ path: String) throws(AttachError) {
        guard path.utf8.count <= AttachPaths.maximumPathLength else {
            throw .pathTooLong(path: path, limit: AttachPaths.maximumPathLength)
        }
        try DirectoryCheck.verify(AttachPaths.directory(of: path))
        guard let status = try FileSystem.status(of: path) else { return }
        switch status.kind {
        case .symbolicLink: throw .symbolicLink(path: path)
        case .socket: return
        default: throw .notASocket(path: path)
        }
    }

    /// Removes the socket at `path` if nothing listens on it; throws if something does, or if
    /// the path holds anything but a socket.
    static func removeStaleSocket(at path: String) throws(AttachError) {
        guard let status = try FileSystem.status(of: path) else { return }
        switch status.kind {
        case .symbolicLink: throw .symbolicLink(path: path)
        case .socket: break
        default: throw .notASocket(path: path)
        }
        switch SocketProbe.probe(path) {
        case .accepting: throw .alreadyInUse(path: path)
        case .refused: try FileSystem.remove(path)
        case .missing: return
        case .denied: throw .permissionDenied(path: path)
        case .failed(let message): throw .system(call: "connect", path: path, message: message)
        }
    }
}
