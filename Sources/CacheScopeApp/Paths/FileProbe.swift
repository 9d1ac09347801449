import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few system calls the path checks make, through swift-system, each returning the
/// system's error rather than trapping.
enum FileProbe {
    /// What is at a path.
    enum Entry {
        case missing
        case directory
        case regularFile(size: Int64)
        case socket
        case other
    }

    /// `stat(2)` (following symbolic links): what is at `path`, `.missing` when nothing is (or a
    /// component is not a directory).
    static func entry(at path: String) throws(Errno) -> Entry {
        let info: Stat
        do {
            info = try FilePath(path).stat()
        } catch {
            if error == .noSuchFileOrDirectory || error == .notDirectory { return .missing }
            throw error
        }
        switch info.type {
        case .directory: return .directory
        case .regular: return .regularFile(size: info.size)
        case .socket: return .socket
        default: return .other
        }
    }

    /// Whether `path` itself is a symbolic link (`lstat(2)`); `false` when nothing is there.
    static func isSymbolicLink(_ path: String) -> Bool {
        (try? FilePath(path).stat(followTargetSymlink: false))?.type == .symbolicLink
    }

    /// Up to `count` bytes from the start of the file at `path`.
    static func head(of path: String, count: Int) throws(Errno) -> [UInt8] {
        do {
            let descriptor = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
            return try descriptor.closeAfter {
                var bytes = [UInt8](repeating: 0, count: count)
                var filled = 0
                while filled < count {
                    let read = try bytes.withUnsafeMutableBytes { raw in
                        try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
                    }
                    if read == 0 { break }
                    filled += read
                }
                bytes.removeLast(count - filled)
                return bytes
            }
        } catch let error as Errno {
            throw error
        } catch {
            throw Errno.ioError
        }
    }

    /// Whether the calling process may access `path` in `mode` (`R_OK`, `W_OK`, `X_OK`);
    /// the system's reason when not.
    static func access(_ path: String, _ mode: Int32) -> Errno? {
        #if canImport(Glibc)
        Glibc.access(path, mode) == 0 ? nil : Errno(rawValue: errno)
        #else
        Darwin.access(path, mode) == 0 ? nil : Errno(rawValue: errno)
        #endif
    }

    /// The directory part of `path` (`.` for a bare name).
    static func directory(of path: String) -> String {
        var file = FilePath(path)
        guard file.removeLastComponent(), !file.isEmpty else { return file.isAbsolute ? "/" : "." }
        return file.string
    }
}

// MARK: - The checks' shared steps, failing with a PathError

extension FileProbe {
    /// What is at the path given for `option`: ``PathError/emptyArgument(option:)`` when it is
    /// empty, `failure` with the system's reason when it cannot be looked at.
    static func entry(
        ofArgument path: String, option: String,
        failure: (_ path: String, _ reason: String) -> PathError = PathError.unreadable
    ) throws(PathError) -> Entry {
        guard !path.isEmpty else { throw .emptyArgument(option: option) }
        return try entry(of: path, failure: failure)
    }

    /// What is at `path`; `failure` with the system's reason when it cannot be looked at.
    static func entry(
        of path: String, failure: (_ path: String, _ reason: String) -> PathError = PathError.unreadable
    ) throws(PathError) -> Entry {
        do {
            return try entry(at: path)
        } catch {
            throw failure(path, error.description)
        }
    }

    /// The first ``ContentSniffer/headLength`` bytes of the file at `path`.
    /// - Throws: ``PathError/unreadable(path:reason:)``.
    static func head(of path: String) throws(PathError) -> [UInt8] {
        do {
            return try head(of: path, count: ContentSniffer.headLength)
        } catch {
            throw .unreadable(path: path, reason: error.description)
        }
    }
}
