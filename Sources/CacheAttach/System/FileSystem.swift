import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - What lstat says

/// A path's type, owner and permissions as `lstat` reports them — the final component is never
/// followed, so a symbolic link shows up as one.
struct FileStatus: Sendable, Hashable {
    /// The kinds of file attach code cares about.
    enum Kind: Sendable, Hashable {
        case directory, socket, symbolicLink, regular, other
    }

    var kind: Kind
    /// The owner's user ID.
    var owner: UInt32
    /// The permission bits (`0o700`, `0o600`, …), without the file type.
    var permissions: UInt32
    /// Device and inode: which file this is, to tell "our socket" from a replacement.
    var identity: FileIdentity
}

/// Device, inode and status-change time of a file: enough to tell a file from a later one
/// that reuses a freed inode number.
struct FileIdentity: Sendable, Hashable {
    var device: UInt64
    var inode: UInt64
    var changedSeconds: Int64 = 0
    var changedNanoseconds: Int64 = 0
}

/// The few file calls attach code needs, on swift-system (`FilePath.stat`, `Errno`) where it
/// has them and thin C calls where it does not (`mkdir`, `chmod`, `unlink`, directory
/// listing), so raw C types stay in this file.
enum FileSystem {
    /// The status of `path`, or `nil` when nothing is there.
    static func status(of path: String) throws(AttachError) -> FileStatus? {
        let info: Stat
        do throws(Errno) {
            info = try FilePath(path).stat(followTargetSymlink: false)
        } catch .noSuchFileOrDirectory, .notDirectory {
            return nil
        } catch {
            throw failure("lstat", path, error)
        }
        let kind: FileStatus.Kind
        switch info.type {
        case .directory: kind = .directory
        case .socket: kind = .socket
        case .symbolicLink: kind = .symbolicLink
        case .regular: kind = .regular
        default: kind = .other
        }
        let changed = info.st_ctim
        return FileStatus(
            kind: kind,
            owner: UInt32(info.userID.rawValue),
            permissions: UInt32(info.permissions.rawValue),
            identity: FileIdentity(
                device: UInt64(info.deviceID.rawValue), inode: UInt64(info.inode.rawValue),
                changedSeconds: Int64(changed.tv_sec), changedNanoseconds: Int64(changed.tv_nsec)
            )
        )
    }

    /// Creates a directory with the given permissions; does nothing if something already
    /// exists there (the caller checks what it is).
    static func makeDirectory(_ path: String, permissions: UInt32) throws(AttachError) {
        guard mkdir(path, mode_t(permissions)) == 0 else {
            let error = Errno.current
            if error == .fileExists { return }
            throw failure("mkdir", path, error)
        }
        // mkdir's mode passes through the umask; set the bits we mean explicitly.
        try setPermissions(path, permissions)
    }

    /// Sets a file's permission bits.
    static func setPermissions(_ path: String, _ permissions: UInt32) throws(AttachError) {
        guard chmod(path, mode_t(permissions)) == 0 else { throw failure("chmod", path, .current) }
    }

    /// Removes a file (not a directory); a file that is already gone is not an error.
    static func remove(_ path: String) throws(AttachError) {
        guard unlink(path) == 0 else {
            let error = Errno.current
            if error == .noSuchFileOrDirectory { return }
            throw failure("unlink", path, error)
        }
    }

    /// The names in a directory (without `.` and `..`), or an empty list when it cannot be read.
    static func names(in directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// The effective user ID of this process.
    static var effectiveUserID: UInt32 { UInt32(geteuid()) }

    /// This process's ID.
    static var processID: Int32 { Int32(getpid()) }

    /// The message for an `errno` value.
    static func message(for code: Int32) -> String {
        Errno(rawValue: code).description
    }

    private static func failure(_ call: String, _ path: String, _ error: Errno) -> AttachError {
        if error == .permissionDenied || error == .notPermitted { return .permissionDenied(path: path) }
        return .system(call: call, path: path, message: error.description)
    }
}

extension Errno {
    /// The C global `errno`, read right after a C call failed.
    fileprivate static var current: Errno { Errno(rawValue: errno) }
}
