@_spi(Benchmarks) @testable import CacheStore
import Foundation

/// The real file system, recording every file it writes, renames and removes, so tests can
/// check exactly what a store operation did on disk.
final class RecordingFileSystem: StoreFileSystem {
    /// One change to the disk.
    enum Operation: Equatable, Sendable {
        case write(path: String, bytes: Int)
        case rename(from: String, to: String)
        case remove(path: String)
    }

    private let real = PosixFileSystem()
    private let log = Locked<[Operation]>([])

    /// Everything recorded so far, and clears the record.
    func take() -> [Operation] { log.withLock { operations in defer { operations = [] }; return operations } }

    private func record(_ operation: Operation) { log.withLock { $0.append(operation) } }

    func createDirectory(_ path: String, ownedByStore: Bool) throws(FileSystemError) {
        try real.createDirectory(path, ownedByStore: ownedByStore)
    }

    func createPrivateFile(_ path: String) throws(FileSystemError) { try real.createPrivateFile(path) }

    func writeFile(_ path: String, contents: [UInt8], sync: Bool) throws(FileSystemError) {
        record(.write(path: path, bytes: contents.count))
        try real.writeFile(path, contents: contents, sync: sync)
    }

    func syncFileSystem(containing path: String) throws(FileSystemError) -> Bool { try real.syncFileSystem(containing: path) }

    func rename(_ source: String, to destination: String) throws(FileSystemError) {
        record(.rename(from: source, to: destination))
        try real.rename(source, to: destination)
    }

    func syncDirectory(_ path: String) throws(FileSystemError) { try real.syncDirectory(path) }

    func readFile(_ path: String) throws(FileSystemError) -> [UInt8] { try real.readFile(path) }

    func removeFile(_ path: String) throws(FileSystemError) {
        record(.remove(path: path))
        try real.removeFile(path)
    }

    func contentsOfDirectory(_ path: String) throws(FileSystemError) -> [String] { try real.contentsOfDirectory(path) }

    func lockExclusively(_ path: String) throws(FileSystemError) -> FileLock? { try real.lockExclusively(path) }
}
