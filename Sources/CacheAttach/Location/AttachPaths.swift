import Foundation

/// Where attach sockets live and what they are called.
///
/// A publishing process puts its socket in ``defaultDirectory`` —
/// `$XDG_RUNTIME_DIR/cachescope/` when that variable names a directory, otherwise
/// `/tmp/cachescope-UID/` — and names it `<process>-<pid>.sock`, for example
/// `/run/user/1000/cachescope/myapp-4242.sock`. The directory is created with mode `0700` and
/// the socket gets mode `0600`, so only the same user can attach.
///
/// The fallback is `/tmp` itself rather than `$TMPDIR`: it is the meeting point of two
/// processes that may not share an environment, so it must not depend on one.
public enum AttachPaths {
    /// The longest socket path, in bytes, that fits in a Unix socket address.
    #if os(Linux)
    public static let maximumPathLength = 107
    #else
    public static let maximumPathLength = 103
    #endif

    /// The directory a server puts its socket in when no path is given.
    public static var defaultDirectory: String {
        defaultDirectory(environment: ProcessInfo.processInfo.environment, userID: FileSystem.effectiveUserID)
    }

    /// The directories discovery looks in: the runtime directory (when set) and the `/tmp`
    /// fallback, since a publishing process started without `XDG_RUNTIME_DIR` (a service, a
    /// `sudo -u`) uses the fallback even when the dashboard's shell has the variable.
    public static var searchedDirectories: [String] {
        searchedDirectories(environment: ProcessInfo.processInfo.environment, userID: FileSystem.effectiveUserID)
    }

    /// The file name for a process's socket: `<process>-<pid>.sock`, with characters other than
    /// letters, digits, `.`, `_` and `-` in the process name replaced by `_`.
    public static func socketName(processName: String, pid: Int32) -> String {
        "\(sanitized(processName))-\(pid).sock"
    }

    /// The socket path a server uses when no path is given.
    public static func defaultSocketPath(processName: String, pid: Int32) -> String {
        defaultDirectory + "/" + socketName(processName: processName, pid: pid)
    }

    // MARK: - Internal, testable without touching the environment

    static func defaultDirectory(environment: [String: String], userID: UInt32) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return trimmingTrailingSlashes(runtime) + "/cachescope"
        }
        return fallbackDirectory(userID: userID)
    }

    static func searchedDirectories(environment: [String: String], userID: UInt32) -> [String] {
        let first = defaultDirectory(environment: environment, userID: userID)
        let fallback = fallbackDirectory(userID: userID)
        return first == fallback ? [first] : [first, fallback]
    }

    static func fallbackDirectory(userID: UInt32) -> String { "/tmp/cachescope-\(userID)" }

    /// Splits `<process>-<pid>.sock` back into its parts (the pid is after the last `-`).
    static func parseSocketName(_ name: String) -> (processName: String, pid: Int32)? {
        guard name.hasSuffix(".sock") else { return nil }
        let stem = name.dropLast(".sock".count)
        guard let dash = stem.lastIndex(of: "-"), let pid = Int32(stem[stem.index(after: dash)...]), pid > 0 else {
            return nil
        }
        let processName = String(stem[..<dash])
        return processName.isEmpty ? nil : (processName, pid)
    }

    /// The directory part of a path (`.` for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    private static func sanitized(_ processName: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        let cleaned = String(processName.prefix(64).map { allowed.contains($0) ? $0 : "_" })
        return cleaned.isEmpty || cleaned.allSatisfy({ $0 == "." }) ? "process" : cleaned
    }

    private static func trimmingTrailingSlashes(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
