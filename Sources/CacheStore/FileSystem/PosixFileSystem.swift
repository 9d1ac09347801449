#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The real file system, through POSIX calls: explicit modes (0700 / 0600, set with chmod so
/// the umask cannot widen or narrow them), `O_EXCL` for new files, `fsync` for durability,
/// and `EINTR` retried.
struct PosixFileSystem: StoreFileSystem {
    func createDirectory(_ path: String) throws(FileSystemError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0, errno != EEXIST { throw failure("create directory", prefix) }
        }
        if chmod(path, 0o700) != 0 { throw failure("set permissions of", path) }
    }

    func createPrivateFile(_ path: String) throws(FileSystemError) {
        let fd = retrying { open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw failure("create", path) }
        defer { close(fd) }
        if fchmod(fd, 0o600) != 0 { throw failure("set permissions of", path) }
    }

    func writeFile(_ path: String, contents: [UInt8], sync: Bool) throws(FileSystemError) {
        let fd = retrying { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw failure("create", path) }
        var closed = false
        defer { if !closed { close(fd) } }
        if fchmod(fd, 0o600) != 0 { throw failure("set permissions of", path) }
        var written = 0
        while written < contents.count {
            let result = contents.withUnsafeBytes { raw in
                write(fd, raw.baseAddress! + written, raw.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw failure("write", path)
            }
            written += result
        }
        if sync, fsync(fd) != 0 { throw failure("sync", path) }
        closed = true
        if close(fd) != 0 { throw failure("close", path) }
    }

    func syncFileSystem(containing path: String) throws(FileSystemError) -> Bool {
        guard let syncfs = systemSyncfs else { return false }
        let fd = retrying { open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw failure("open", path) }
        defer { close(fd) }
        if syncfs(fd) != 0 { throw failure("sync the file system of", path) }
        return true
    }

    func rename(_ source: String, to destination: String) throws(FileSystemError) {
        if systemRename(source, destination) != 0 { throw failure("rename", "\(source) to \(destination)") }
    }

    func syncDirectory(_ path: String) throws(FileSystemError) {
        let fd = retrying { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { throw failure("open directory", path) }
        defer { close(fd) }
        if fsync(fd) != 0 { throw failure("sync directory", path) }
    }

    func readFile(_ path: String) throws(FileSystemError) -> [UInt8] {
        let fd = retrying { open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw failure("open", path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("inspect", path) }
        let size = Int(info.st_size)
        var failedErrno: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            initialized = 0
            while initialized < size {
                let result = read(fd, buffer.baseAddress! + initialized, size - initialized)
                if result < 0 {
                    if errno == EINTR { continue }
                    failedErrno = errno
                    return
                }
                if result == 0 { return }
                initialized += result
            }
        }
        if failedErrno != 0 { throw FileSystemError(operation: "read", path: path, code: failedErrno) }
        return bytes
    }

    func removeFile(_ path: String) throws(FileSystemError) {
        if unlink(path) != 0 { throw failure("remove", path) }
    }

    func contentsOfDirectory(_ path: String) throws(FileSystemError) -> [String] {
        guard let directory = opendir(path) else { throw failure("list", path) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    func permissions(_ path: String) throws(FileSystemError) -> UInt16 {
        var info = stat()
        guard stat(path, &info) == 0 else { throw failure("inspect", path) }
        return UInt16(info.st_mode & 0o777)
    }

    func lockExclusively(_ path: String) throws(FileSystemError) -> FileLock? {
        let fd = retrying { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw failure("create", path) }
        if fchmod(fd, 0o600) != 0 {
            let error = failure("set permissions of", path)
            close(fd)
            throw error
        }
        if retrying({ flock(fd, LOCK_EX | LOCK_NB) }) != 0 {
            let error = failure("lock", path)
            close(fd)
            if error.code == EWOULDBLOCK { return nil }
            throw error
        }
        return FileLock(descriptor: fd)
    }

    // MARK: Helpers

    private func failure(_ operation: String, _ path: String) -> FileSystemError {
        FileSystemError(operation: operation, path: path, code: errno)
    }

    private func retrying(_ call: () -> Int32) -> Int32 {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }
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
