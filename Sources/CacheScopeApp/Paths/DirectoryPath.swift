public import Foundation
import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A directory the command keeps files in (`--cache-dir`), checked before any work starts:
/// an existing one must be a directory the process can read, write and enter; a missing one
/// must be creatable (its nearest existing parent a writable directory). ``create()`` then
/// makes it, mode 0700, as the store wants its directory private.
///
/// ```swift
/// let store = try DirectoryPath("~/.cache/cachescope", option: "--cache-dir")
/// try store.create()
/// ```
public struct DirectoryPath: Sendable, Hashable, CustomStringConvertible {
    /// The path as given.
    public let path: String
    /// Whether it existed when checked.
    public let existed: Bool

    /// Checks `path`.
    /// - Throws: ``PathError`` naming the path and the problem.
    public init(_ path: String, option: String) throws(PathError) {
        switch try FileProbe.entry(ofArgument: path, option: option) {
        case .directory:
            if let problem = FileProbe.access(path, R_OK | W_OK | X_OK) {
                throw .unwritable(path: path, reason: problem.description)
            }
            existed = true
        case .regularFile, .socket, .other:
            throw .notADirectory(path: path)
        case .missing:
            try Self.checkCreatable(path)
            existed = false
        }
        self.path = path
    }

    public var description: String { path }

    /// The directory as a file URL.
    public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// Creates the directory and any missing parents (mode 0700); nothing when it exists.
    /// - Throws: ``PathError/unwritable(path:reason:)`` naming the directory that could not be
    ///   made and why (`cannot create /proc/nope: no such file or directory`): a parent such as
    ///   `/proc` passes the access check and still refuses new entries.
    public func create() throws(PathError) {
        var missing: [String] = []
        var current = path
        while true {
            guard case .missing = try FileProbe.entry(of: current) else { break }
            missing.append(current)
            let parent = FileProbe.directory(of: current)
            if parent == current { break }
            current = parent
        }
        for directory in missing.reversed() where mkdir(directory, 0o700) != 0 {
            let failure = Errno(rawValue: errno)
            if failure == .fileExists, case .directory = try FileProbe.entry(of: directory) { continue }
            throw .unwritable(path: path, reason: "cannot create \(directory): \(failure.description)")
        }
    }

    // MARK: Checks

    /// The nearest existing ancestor is a directory the process may create entries in.
    private static func checkCreatable(_ path: String) throws(PathError) {
        var ancestor = FileProbe.directory(of: path)
        while true {
            switch try FileProbe.entry(of: ancestor) {
            case .directory:
                if let problem = FileProbe.access(ancestor, W_OK | X_OK) {
                    throw .unwritable(path: path, reason: "cannot create it in \(ancestor): \(problem.description)")
                }
                return
            case .regularFile, .socket, .other:
                throw .notADirectory(path: ancestor)
            case .missing:
                let parent = FileProbe.directory(of: ancestor)
                guard parent != ancestor else { throw .notFound(path: ancestor, expected: .directory) }
                ancestor = parent
            }
        }
    }
}
