import Synchronization
import SystemPackage

/// The disk tier's entry files kept in memory (``DiskMedium/simulated``); everything else —
/// directories, the lock file, the SQLite index — goes to `base`, the real file system.
///
/// A file written here is read, renamed, listed and removed here; a path this layer does not
/// hold is passed to `base`. Syncs do nothing: there is no device to make durable. A long run
/// of zeros in a file is kept as a count, so placeholder bodies take no memory.
final class SimulatedEntryFiles: StoreFileSystem {
    /// A file's bytes with its longest run of zero words kept as a count: the placeholder
    /// body of a log that did not record bodies is kilobytes of zeros between a file's header
    /// and its checksum.
    private struct Contents {
        var head: [UInt8]
        var zeros: Int
        var tail: [UInt8]

        init(_ contents: [UInt8]) {
            let run = Self.longestZeroRun(contents)
            guard run.count >= 64 else {
                (head, zeros, tail) = (contents, 0, [])
                return
            }
            head = Array(contents[..<run.lowerBound])
            zeros = run.count
            tail = Array(contents[run.upperBound...])
        }

        var whole: [UInt8] {
            guard zeros > 0 else { return head }
            var bytes = head
            bytes.reserveCapacity(head.count + zeros + tail.count)
            bytes.append(contentsOf: repeatElement(0, count: zeros))
            bytes.append(contentsOf: tail)
            return bytes
        }

        /// The longest run of 8-byte-aligned zero words, eight bytes at a time.
        private static func longestZeroRun(_ contents: [UInt8]) -> Range<Int> {
            contents.withUnsafeBytes { raw in
                var best = 0..<0
                var offset = 0
                while offset + 8 <= raw.count {
                    guard raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == 0 else {
                        offset += 8
                        continue
                    }
                    let start = offset
                    while offset + 8 <= raw.count, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == 0 { offset += 8 }
                    if offset - start > best.count { best = start..<offset }
                }
                return best
            }
        }
    }

    private let base: any StoreFileSystem
    private let files = Mutex<[String: Contents]>([:])

    init(base: any StoreFileSystem) {
        self.base = base
    }

    var keepsFilesInMemory: Bool { true }

    func createDirectory(_ path: String, ownedByStore: Bool) throws(FileSystemError) {
        try base.createDirectory(path, ownedByStore: ownedByStore)
    }

    func createPrivateFile(_ path: String) throws(FileSystemError) { try base.createPrivateFile(path) }

    func writeFile(_ path: String, contents: [UInt8], sync: Bool) throws(FileSystemError) {
        let stored = Contents(contents)
        let existed = files.withLock { files in
            if files[path] != nil { return true }
            files[path] = stored
            return false
        }
        if existed { throw FileSystemError(operation: "create", path: path, errno: .fileExists) }
    }

    func syncFileSystem(containing path: String) throws(FileSystemError) -> Bool { true }

    func rename(_ source: String, to destination: String) throws(FileSystemError) {
        let moved = files.withLock { files in
            guard let contents = files.removeValue(forKey: source) else { return false }
            files[destination] = contents
            return true
        }
        if !moved { try base.rename(source, to: destination) }
    }

    func syncDirectory(_ path: String) throws(FileSystemError) {}

    func readFile(_ path: String) throws(FileSystemError) -> [UInt8] {
        if let contents = files.withLock({ $0[path] }) { return contents.whole }
        return try base.readFile(path)
    }

    func removeFile(_ path: String) throws(FileSystemError) {
        if files.withLock({ $0.removeValue(forKey: path) }) == nil { try base.removeFile(path) }
    }

    func contentsOfDirectory(_ path: String) throws(FileSystemError) -> [String] {
        let prefix = path.hasSuffix("/") ? path : path + "/"
        let held = files.withLock { files in
            files.keys.compactMap { name -> String? in
                guard name.hasPrefix(prefix) else { return nil }
                let rest = name.dropFirst(prefix.count)
                return rest.contains("/") ? nil : String(rest)
            }
        }
        return try base.contentsOfDirectory(path) + held
    }

    func lockExclusively(_ path: String) throws(FileSystemError) -> FileLock? { try base.lockExclusively(path) }
}
