import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real private directory (mode 0700, from `mkdtemp`) under `/tmp`, short enough for socket
/// paths, removed with everything in it by ``remove()``.
struct TemporaryDirectory: Sendable {
    let path: String

    init() throws {
        var template = Array("/tmp/csa-XXXXXX".utf8CString)
        guard let result = mkdtemp(&template) else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        path = String(cString: result)
    }

    /// A path inside the directory.
    func file(_ name: String) -> String { path + "/" + name }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Permission bits of a path (not following a final symbolic link).
func permissions(of path: String) -> UInt32? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return UInt32(info.st_mode & 0o7777)
}

/// Whether a path exists (a symbolic link counts, whatever it points to).
func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
}
