import SystemPackage

/// Why a file could not be opened for reading; each reader turns it into its own error.
enum FileAccessProblem: Error, Sendable, Hashable {
    case notFound
    case directory
    case unreadable(String)
}

/// A file opened for reading with swift-system's `FileDescriptor`: session logs are read in
/// large chunks without ever holding the whole file, so a 200 MB log costs a few megabytes of
/// buffer.
///
/// `@unchecked Sendable`: the descriptor and size never change after `init`, and the
/// positional reads the parallel loader shares it through (`pread`) are safe from any thread
/// (swift-system leaves `FileDescriptor` non-`Sendable` because reads at the shared offset
/// race; those happen only on the one thread that calls ``readAll()``).
final class InputFile: @unchecked Sendable {
    private let descriptor: FileDescriptor
    /// The file's size in bytes when it was opened.
    let size: Int

    /// Opens `path`, refusing directories.
    init(path: String) throws(FileAccessProblem) {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec)
        } catch {
            switch error {
            case Errno.noSuchFileOrDirectory, Errno.notDirectory: throw .notFound
            case Errno.isDirectory: throw .directory
            default: throw .unreadable("\(error)")
            }
        }
        let info: Stat
        do throws(Errno) {
            info = try descriptor.stat()
        } catch {
            try? descriptor.close()
            throw .unreadable("\(error)")
        }
        if info.type == .directory {
            try? descriptor.close()
            throw .directory
        }
        self.descriptor = descriptor
        size = Int(info.size)
    }

    deinit { try? descriptor.close() }

    /// Reads up to `buffer.count` bytes; 0 at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FileAccessProblem) -> Int {
        do {
            return try descriptor.read(into: buffer)
        } catch {
            throw .unreadable("\(error)")   // an `Errno`: its `strerror` text
        }
    }

    /// Reads up to `buffer.count` bytes starting at `offset` (POSIX `pread`: several readers
    /// may share the file); 0 at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(FileAccessProblem) -> Int {
        do {
            return try descriptor.read(fromAbsoluteOffset: Int64(offset), into: buffer)
        } catch {
            throw .unreadable("\(error)")   // an `Errno`: its `strerror` text
        }
    }

    /// The whole (rest of the) file.
    func readAll() throws(FileAccessProblem) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(size, 0) + 1)
        var filled = 0
        while true {
            if filled == bytes.count { bytes.append(contentsOf: [UInt8](repeating: 0, count: max(bytes.count, 65_536))) }
            let start = filled
            let count = try bytes.withUnsafeMutableBytes { raw -> Result<Int, FileAccessProblem> in
                Result { () throws(FileAccessProblem) in try read(into: UnsafeMutableRawBufferPointer(rebasing: raw[start...])) }
            }.get()
            if count == 0 { break }
            filled += count
        }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// `strerror` text for an errno value.
    static func message(_ code: Int32) -> String {
        Errno(rawValue: code).description
    }
}
