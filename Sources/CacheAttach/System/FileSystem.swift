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

/// The few POSIX file calls attach code needs, so raw C types stay in this file.
enum FileSystem {
    /// The status of `path`, or `nil` when nothing is there.
    static func status(of path: String) throws(AttachError) -> FileStatus? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw failure("lstat", path, code)
        }
        let kind: FileStatus.Kind
        switch info.st_mode & S_IFMT {
        case S_IFDIR: kind = .directory
        case S_IFSOCK: kind = .socket
        case S_IFLNK: kind = .symbolicLink
        case S_IFREG: kind = .regular
        default: kind = .other
        }
        return FileStatus(
            kind: kind,
            owner: UInt32(info.st_uid),
            permissions: UInt32(info.st_mode & 0o7777),
            identity: identity(of: info)
        )
    }

    private static func identity(of info: stat) -> FileIdentity {
        #if canImport(Darwin)
        let changed = info.st_ctimespec
        #else
        let changed = info.st_ctim
        #endif
        return FileIdentity(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino),
            changedSeconds: Int64(changed.tv_sec), changedNanoseconds: Int64(changed.tv_nsec)
        )
    }

    /// Creates a directory with the given permissions; returns `false` if something already exists there.
    static func makeDirectory(_ path: String, permissions: UInt32) throws(AttachError) -> Bool {
        guard mkdir(path, mode_t(permissions)) == 0 else {
            let code = errno
            if code == EEXIST { return false }
            throw failure("mkdir", path, code)
        }
        // mkdir's mode passes through the umask; set the bits we mean explicitly.
        try setPermissions(path, permissions)
        return true
    }

    /// Sets a file's permission bits.
    static func setPermissions(_ path: String, _ permissions: UInt32) throws(AttachError) {
        guard chmod(path, mode_t(permissions)) == 0 else { throw failure("chmod", path, errno) }
    }

    /// Removes a file (not a directory); a file that is already gone is not an error.
    static func remove(_ path: String) throws(AttachError) {
        guard unlink(path) == 0 else {
            let code = errno
            if code == ENOENT { return }
            throw failure("unlink", path, code)
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

    /// `EADDRINUSE`: `bind` found the address taken.
    static let addressInUse = EADDRINUSE
    /// `ECONNREFUSED`: nothing listens on the socket.
    static let connectionRefused = ECONNREFUSED
    /// `ENOENT`: nothing is at the path.
    static let noSuchFile = ENOENT
    /// `EACCES` and `EPERM`: the operating system refused access.
    static let accessDenied: Set<Int32> = [EACCES, EPERM]

    /// The message for an `errno` value.
    static func message(for code: Int32) -> String {
        String(cString: strerror(code))
    }

    private static func failure(_ call: String, _ path: String, _ code: Int32) -> AttachError {
        if code == EACCES || code == EPERM { return .permissionDenied(path: path) }
        return .system(call: call, path: path, message: message(for: code))
    }
}
