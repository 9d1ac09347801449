import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The real file system, on swift-system's `FileDescriptor` and `FilePath`: explicit modes
/// (0700 / 0600, set with chmod so the umask cannot widen or narrow them), `O_EXCL` for new
/// files, `fsync` for durability, and `EINTR` retried.
///
/// swift-system has no `mkdir`, `chmod`, `fsync`, `syncfs`, `rename`, `unlink`, `flock` or
/// directory listing; those are thin C calls below (on a descriptor's `rawValue` where one is
/// open), their `errno` turned into `Errno` like swift-system's own failures.
struct PosixFileSystem: StoreFileSystem {
    func createDirectory(_ path: String, ownedByStore: Bool) throws(FileSystemError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            guard mkdir(prefix, 0o700) == 0 else {
                if errno != EEXIST { throw .current("create directory", prefix) }
                continue  // a directory that was there keeps its mode: it may be /tmp or a home
            }
            // The umask may have taken bits from 0700; nobody else may have been given any.
            try call("set permissions of", prefix) { chmod(prefix, 0o700) }
        }
        guard ownedByStore else { return }
        // One of the store's own folders may not lead elsewhere: the store empties `tmp/`, clears
        // what is not its own out of `entries/` and makes them private — through a link, in
        // someone else's folder.
        var status = stat()
        try call("look at", path) { lstat(path, &status) }
        if status.st_mode & S_IFMT == S_IFLNK {
            throw FileSystemError(operation: "use the symbolic link (the cache keeps its own folders here)", path: path, errno: .tooManySymbolicLinkLevels)
        }
        // One of the store's own that was there (made by someone else, or before) is made private.
        try call("set permissions of", path) { chmod(path, 0o700) }
    }

    func createPrivateFile(_ path: String) throws(FileSystemError) {
        let file = try open("create", path, .writeOnly, [.create], permissions: .ownerReadWrite)
        try file.closing(path) { () throws(FileSystemError) in
            try call("set permissions of", path) { fchmod(file.rawValue, 0o600) }
        }
    }

    func writeFile(_ path: String, contents: [UInt8], sync: Bool) throws(FileSystemError) {
        let file = try open("create", path, .writeOnly, [.create, .exclusiveCreate], permissions: .ownerReadWrite)
        try file.closing(path) { () throws(FileSystemError) in
            try call("set permissions of", path) { fchmod(file.rawValue, 0o600) }
            try attempt("write", path) { _ = try file.writeAll(contents) }
            if sync { try call("sync", path) { fsync(file.rawValue) } }
        }
    }

    func syncFileSystem(containing path: String) throws(FileSystemError) -> Bool {
        guard let syncfs = systemSyncfs else { return false }
        let file = try open("open", path, .readOnly)
        try file.closing(path) { () throws(FileSystemError) in
            try call("sync the file system of", path) { syncfs(file.rawValue) }
        }
        return true
    }

    func rename(_ source: String, to destination: String) throws(FileSystemError) {
        try call("rename", "\(source) to \(destination)") { systemRename(source, destination) }
    }

    func syncDirectory(_ path: String) throws(FileSystemError) {
        let directory = try open("open directory", path, .readOnly, [.directory])
        try directory.closing(path) { () throws(FileSystemError) in
            try call("sync directory", path) { fsync(directory.rawValue) }
        }
    }

    func readFile(_ path: String) throws(FileSystemError) -> [UInt8] {
        let file = try open("open", path, .readOnly)
        return try file.closing(path) { () throws(FileSystemError) in
            let size: Int
            do throws(Errno) {
                size = Int(try file.stat().size)
            } catch {
                throw FileSystemError(operation: "inspect", path: path, errno: error)
            }
            // Reads into uninitialised storage: entry files can be megabytes, and the buffer is
            // filled from the file anyway. Stops at the size `fstat` gave, or earlier at the end.
            var failure: Errno?
            let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
                initialized = 0
                while initialized < size {
                    do {
                        let count = try file.read(into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[initialized...])))
                        if count == 0 { return }
                        initialized += count
                    } catch {
                        failure = error as? Errno ?? .ioError
                        return
                    }
                }
            }
            if let failure { throw FileSystemError(operation: "read", path: path, errno: failure) }
            return bytes
        }
    }

    /// Removes a file, or an empty directory in its place (none of the store's own: left
    /// where an entry's file was, it would stop that entry from ever being written again).
    func removeFile(_ path: String) throws(FileSystemError) {
        if unlink(path) == 0 { return }
        // A folder: Linux says EISDIR, macOS EPERM (which may also be a file it may not remove).
        if errno == EISDIR || errno == EPERM {
            let unlinkError = FileSystemError.current("remove", path)
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { throw unlinkError }
            if rmdir(path) == 0 { return }
        }
        throw .current("remove", path)
    }

    func contentsOfDirectory(_ path: String) throws(FileSystemError) -> [String] {
        guard let directory = opendir(path) else { throw .current("list", path) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    func lockExclusively(_ path: String) throws(FileSystemError) -> FileLock? {
        let file = try open("create", path, .readWrite, [.create], permissions: .ownerReadWrite)
        do throws(FileSystemError) {
            try call("set permissions of", path) { fchmod(file.rawValue, 0o600) }
            try call("lock", path, retryingOnInterrupt: true) { flock(file.rawValue, LOCK_EX | LOCK_NB) }
        } catch {
            try? file.close()
            if error.errno == .wouldBlock { return nil }
            throw error
        }
        return FileLock(descriptor: file)
    }

    // MARK: Helpers

    /// `FileDescriptor.open` (close-on-exec, `EINTR` retried) with the store's errors.
    private func open(
        _ operation: String, _ path: String, _ mode: FileDescriptor.AccessMode,
        _ options: FileDescriptor.OpenOptions = [], permissions: FilePermissions? = nil
    ) throws(FileSystemError) -> FileDescriptor {
        try attempt(operation, path) {
            try FileDescriptor.open(FilePath(path), mode, options: options.union(.closeOnExec), permissions: permissions)
        }
    }

    /// A C call that returns 0 on success and -1 with `errno` set on failure.
    private func call(
        _ operation: String, _ path: String, retryingOnInterrupt: Bool = false, _ body: () -> Int32
    ) throws(FileSystemError) {
        while body() != 0 {
            if retryingOnInterrupt, errno == EINTR { continue }
            throw .current(operation, path)
        }
    }
}

/// Runs a swift-system call, turning the `Errno` it throws into a ``FileSystemError`` that
/// names the operation and the path (swift-system's calls throw nothing else).
private func attempt<Result>(_ operation: String, _ path: String, _ body: () throws -> Result) throws(FileSystemError) -> Result {
    do {
        return try body()
    } catch {
        throw FileSystemError(operation: operation, path: path, errno: error as? Errno ?? .ioError)
    }
}

extension FileDescriptor {
    /// swift-system's `closeAfter` with the store's typed errors: the body's error wins over a
    /// failed close, and a failed close after a successful body is reported as one.
    fileprivate func closing<Result>(_ path: String, _ body: () throws(FileSystemError) -> Result) throws(FileSystemError) -> Result {
        do {
            return try closeAfter(body)
        } catch let error as FileSystemError {
            throw error
        } catch {
            throw FileSystemError(operation: "close", path: path, errno: error as? Errno ?? .ioError)
        }
    }
}

extension FileSystemError {
    /// The failure the C global `errno` describes, right after a C call failed.
    fileprivate static func current(_ operation: String, _ path: String) -> FileSystemError {
        FileSystemError(operation: operation, path: path, errno: lastErrno())
    }
}

/// The C global `errno` as an `Errno` (read outside ``FileSystemError``, whose `errno` member
/// would shadow it).
private func lastErrno() -> Errno {
    Errno(rawValue: errno)
}

/// `rename(2)`, named apart from the protocol method that shadows it.
private func systemRename(_ source: String, _ destination: String) -> Int32 {
    #if canImport(Glibc)
    Glibc.rename(source, destination)
    #elseif canImport(Musl)
    Musl.rename(source, destination)
    #else
    Darwin.rename(source, destination)
    #endif
}

/// `syncfs(2)`, looked up at run time: Glibc's module map hides it (it needs `_GNU_SOURCE`),
/// and it is Linux-only. `nil` where it does not exist.
private let systemSyncfs: (@convention(c) (Int32) -> Int32)? = {
    guard let symbol = dlsym(nil, "syncfs") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
}()
