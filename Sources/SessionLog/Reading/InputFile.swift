import CacheEvents
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file could not be opened for reading; each reader turns it into its own error.
enum FileAccessProblem: Error, Sendable, Hashable {
    case notFound
    case directory
    case unreadable(String)
}

/// A file opened for reading with POSIX calls: session logs are read in large chunks without
/// ever holding the whole file, so a 200 MB log costs a few megabytes of buffer.
///
/// `@unchecked Sendable`: the descriptor and size never change after `init`, and the
/// positional reads the parallel loader shares it through (`pread`) are safe from any thread.
final class InputFile: @unchecked Sendable {
    private let descriptor: Int32
    /// The file's size in bytes when it was opened.
    let size: Int

    /// Opens `path`, refusing directories.
    init(path: String) throws(FileAccessProblem) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .notFound }
            if code == EISDIR { throw .directory }
            throw .unreadable(Self.message(code))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw .unreadable(Self.message(code))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw .directory
        }
        self.descriptor = descriptor
        size = Int(info.st_size)
    }

    deinit { close(descriptor) }

    /// Reads up to `buffer.count` bytes; 0 at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FileAccessProblem) -> Int {
        while true {
            let count = posixRead(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw .unreadable(Self.message(errno))
        }
    }

    /// Reads up to `buffer.count` bytes starting at `offset` (POSIX `pread`: several readers
    /// may share the file); 0 at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(FileAccessProblem) -> Int {
        while true {
            let count = posixPread(descriptor, buffer.baseAddress, buffer.count, offset)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw .unreadable(Self.message(errno))
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
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// POSIX `read` and `pread`, named apart from ``InputFile``'s own methods.
private func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func posixPread(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: Int) -> Int {
    pread(descriptor, buffer, count, off_t(offset))
}
