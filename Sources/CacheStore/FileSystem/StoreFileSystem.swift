import SystemPackage

/// The file operations the disk tier performs on entry files: a seam so tests can make the
/// disk full, read-only or failing (``PosixFileSystem`` is the real one). SQLite does its own
/// I/O on the index; its failures reach the store as index errors and degrade it the same way.
protocol StoreFileSystem: Sendable {
    /// Creates a directory (and missing parents) with mode 0700. An existing one is set to 0700
    /// when it is the store's own (`ownedByStore`); the directory a store was given keeps its
    /// mode (`--cache-dir /tmp` must not lock other users out of /tmp).
    func createDirectory(_ path: String, ownedByStore: Bool) throws(FileSystemError)
    /// Creates an empty file with mode 0600 if it does not exist, and sets its mode to 0600.
    func createPrivateFile(_ path: String) throws(FileSystemError)
    /// Writes a new file with mode 0600; with `sync`, forces it to stable storage (fsync)
    /// before returning. Fails if the file exists.
    func writeFile(_ path: String, contents: [UInt8], sync: Bool) throws(FileSystemError)
    /// Forces everything written so far on the file system that holds `path` to stable
    /// storage (`syncfs`): one flush for a whole batch of files instead of one per file.
    /// Returns `false` when the system lacks `syncfs` (the caller then syncs file by file).
    func syncFileSystem(containing path: String) throws(FileSystemError) -> Bool
    /// Renames atomically (same file system), replacing the target.
    func rename(_ source: String, to destination: String) throws(FileSystemError)
    /// Forces a directory's entries (names created, renamed or removed) to stable storage.
    func syncDirectory(_ path: String) throws(FileSystemError)
    /// The whole contents of a file.
    func readFile(_ path: String) throws(FileSystemError) -> [UInt8]
    /// Removes a file.
    func removeFile(_ path: String) throws(FileSystemError)
    /// The names in a directory, without `.` and `..`.
    func contentsOfDirectory(_ path: String) throws(FileSystemError) -> [String]
    /// Takes an exclusive lock on a lock file (created 0600); `nil` when someone else holds it.
    func lockExclusively(_ path: String) throws(FileSystemError) -> FileLock?
    /// Whether entry files stay in this process's memory (``SimulatedEntryFiles``): then no
    /// device can damage them and their checksums are not checked when read. Default `false`.
    var keepsFilesInMemory: Bool { get }
}

extension StoreFileSystem {
    /// Files on a device.
    var keepsFilesInMemory: Bool { false }

    /// Removes a file; a file that is already gone is not an error.
    func removeIfPresent(_ path: String) throws(FileSystemError) {
        do throws(FileSystemError) {
            try removeFile(path)
        } catch {
            if !error.isNotFound { throw error }
        }
    }
}

/// A failed file operation: what, on which path, and the system error it gave.
struct FileSystemError: Error, CustomStringConvertible, Equatable {
    let operation: String
    let path: String
    let errno: Errno

    /// Whether nothing is at the path: the one failure the store treats as an answer (a file
    /// already gone) rather than a reason to degrade the namespace.
    var isNotFound: Bool { errno == .noSuchFileOrDirectory || errno == .notDirectory }

    /// Whether a directory is where a file was expected: something left in the store's
    /// directory by someone else — a damaged entry, not a failing disk.
    var isDirectoryInstead: Bool { errno == .isDirectory }

    var description: String {
        "cannot \(operation) \(path): \(errno) (errno \(errno.rawValue))"
    }
}

/// An exclusive advisory lock (`flock`) on a file, held until this value is released. The
/// kernel drops it when the process dies, so a killed store never leaves a stale lock.
///
/// `@unchecked Sendable`: the descriptor is never used after `init` except to close it, once,
/// in `deinit` (swift-system leaves `FileDescriptor` non-`Sendable` because reads and writes
/// through one descriptor race; holding a lock does neither).
final class FileLock: @unchecked Sendable {
    private let descriptor: FileDescriptor

    init(descriptor: FileDescriptor) {
        self.descriptor = descriptor
    }

    deinit { try? descriptor.close() }
}
