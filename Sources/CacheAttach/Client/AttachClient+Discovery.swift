extension AttachClient {
    /// Lists the sockets in ``AttachPaths/searchedDirectories``, live and stale, sorted by
    /// process name and pid.
    ///
    /// Each socket is probed with a connection that closes at once; a directory that is missing,
    /// a symbolic link, or not private to the current user is skipped (its sockets could have
    /// been planted by someone else), and so is anything that is not a socket.
    public static func discover() -> [AttachTarget] {
        discover(in: AttachPaths.searchedDirectories)
    }

    /// Lists the sockets in the given directories (see ``discover()``).
    public static func discover(in directories: [String]) -> [AttachTarget] {
        var targets: [AttachTarget] = []
        for directory in directories {
            guard (try? DirectoryCheck.verify(directory)) != nil else { continue }
            for name in FileSystem.names(in: directory) where name.hasSuffix(".sock") {
                let path = directory + "/" + name
                guard let status = try? FileSystem.status(of: path), status.kind == .socket else { continue }
                let state: AttachTarget.State
                switch SocketProbe.probe(path) {
                case .accepting: state = .live
                case .refused, .failed: state = .stale
                case .denied: state = .denied
                case .missing: continue
                }
                let parsed = AttachPaths.parseSocketName(name)
                targets.append(AttachTarget(
                    path: path,
                    processName: parsed?.processName ?? String(name.dropLast(".sock".count)),
                    pid: parsed?.pid,
                    state: state
                ))
            }
        }
        return targets.sorted { ($0.processName, $0.pid ?? 0, $0.path) < ($1.processName, $1.pid ?? 0, $1.path) }
    }

    /// The one live target among `targets`; throws ``AttachError/noPublishers(searched:stale:)``
    /// when there is none and ``AttachError/severalPublishers(_:)`` when there are several.
    public static func chooseTarget(among targets: [AttachTarget], searched: [String]) throws(AttachError) -> AttachTarget {
        let live = targets.filter(\.isLive)
        switch live.count {
        case 1: return live[0]
        case 0: throw .noPublishers(searched: searched, stale: targets.filter { $0.state == .stale }.map(\.path))
        default: throw .severalPublishers(live)
        }
    }
}
