@_spi(Benchmarks) @testable import CacheStore
import Foundation
import SystemPackage

/// The real file system with faults switched on by tests: a full disk (writes fail with
/// ENOSPC), a read-only one (anything that changes the disk fails with EROFS), failing
/// reads (EIO), or a stalled one (writes wait until the fault is cleared, at most 30 s).
final class FaultInjectingFileSystem: StoreFileSystem {
    enum Fault: Sendable {
        case diskFull
        case readOnly
        case readError
        case stalled
    }

    private let real = PosixFileSystem()
    private let fault = Locked<Fault?>(nil)
    /// Pretends the system has no `syncfs`, forcing the file-by-file fsync path.
    let withoutSyncfs: Bool

    init(withoutSyncfs: Bool = false) {
        self.withoutSyncfs = withoutSyncfs
    }

    func inject(_ newFault: Fault?) { fault.withLock { $0 = newFault } }

    private var current: Fault? { fault.withLock { $0 } }

    private func failChange(_ operation: String, _ path: String) throws(FileSystemError) {
        switch current {
        case .diskFull: throw FileSystemError(operation: operation, path: path, errno: .noSpace)
        case .readOnly: throw FileSystemError(operation: operation, path: path, errno: .readOnlyFileSystem)
        case .readError, .stalled, nil: return
        }
    }

    func createDirectory(_ path: String, ownedByStore: Bool) throws(FileSystemError) {
        if current == .readOnly { throw FileSystemError(operation: "create directory", path: path, errno: .readOnlyFileSystem) }
        try real.createDirectory(path, ownedByStore: ownedByStore)
    }

    func createPrivateFile(_ path: String) throws(FileSystemError) {
        try failChange("create", path)
        try real.createPrivateFile(path)
    }

    func writeFile(_ path: String, contents: [UInt8], sync: Bool) throws(FileSystemError) {
        let deadline = ContinuousClock.now + .seconds(30)
        while current == .stalled, ContinuousClock.now < deadline { usleep(1000) }
        try failChange("write", path)
        try real.writeFile(path, contents: contents, sync: sync)
    }

    func syncFileSystem(containing path: String) throws(FileSystemError) -> Bool {
        try failChange("sync", path)
        if withoutSyncfs { return false }
        return try real.syncFileSystem(containing: path)
    }

    func rename(_ source: String, to destination: String) throws(FileSystemError) {
        try failChange("rename", source)
        try real.rename(source, to: destination)
    }

    func syncDirectory(_ path: String) throws(FileSystemError) { try real.syncDirectory(path) }

    func readFile(_ path: String) throws(FileSystemError) -> [UInt8] {
        if current == .readError { throw FileSystemError(operation: "read", path: path, errno: .ioError) }
        return try real.readFile(path)
    }

    func removeFile(_ path: String) throws(FileSystemError) {
        if current == .readOnly { throw FileSystemError(operation: "remove", path: path, errno: .readOnlyFileSystem) }
        try real.removeFile(path)
    }

    func contentsOfDirectory(_ path: String) throws(FileSystemError) -> [String] { try real.contentsOfDirectory(path) }

    func lockExclusively(_ path: String) throws(FileSystemError) -> FileLock? {
        if current == .readOnly { throw FileSystemError(operation: "create", path: path, errno: .readOnlyFileSystem) }
        return try real.lockExclusively(path)
    }
}
