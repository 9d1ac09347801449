import CacheEvents
public import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension HARArchive {
    /// The archive as pretty-printed JSON with sorted keys and unescaped slashes.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Writes the archive to `path` atomically, readable by its owner only (mode 0600: a HAR
    /// holds URLs and headers).
    ///
    /// The bytes go to a temporary file beside `path` (`.NAME.RANDOM.tmp`, created exclusively
    /// with mode 0600), which is synced and renamed over `path`; on any failure it is removed,
    /// so `path` is either left as it was or holds the whole archive.
    /// - Throws: ``HARError/writeFailed(file:reason:)``.
    public func write(to path: String) throws(HARError) {
        let bytes: Data
        do {
            bytes = try encoded()
        } catch {
            throw .writeFailed(file: path, reason: String(describing: error))
        }
        try PrivateFileWriter.write(bytes, to: path)
    }
}

/// Writes a whole file through a temporary file renamed into place, mode 0600.
enum PrivateFileWriter {
    static func write(_ bytes: Data, to path: String) throws(HARError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let temporary = directory + "/." + url.lastPathComponent + "." + String(UInt64.random(in: .min ... .max), radix: 16) + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .writeFailed(file: path, reason: InputFile.message(errno)) }
        var failure = bytes.withUnsafeBytes { raw in writeAll(descriptor, raw) }
        if failure == nil, fsync(descriptor) != 0, errno != EINVAL { failure = InputFile.message(errno) }
        if close(descriptor) != 0, failure == nil { failure = InputFile.message(errno) }
        if failure == nil, rename(temporary, path) != 0 { failure = InputFile.message(errno) }
        if let failure {
            _ = unlink(temporary)
            throw .writeFailed(file: path, reason: failure)
        }
    }

    /// Writes every byte, retrying short writes and `EINTR`; the failure's text, or `nil`.
    private static func writeAll(_ descriptor: Int32, _ raw: UnsafeRawBufferPointer) -> String? {
        guard let base = raw.baseAddress else { return nil }
        var offset = 0
        while offset < raw.count {
            let count = systemWrite(descriptor, base + offset, raw.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                return InputFile.message(errno)
            }
            offset += count
        }
        return nil
    }
}

/// POSIX `write`, named apart from ``PrivateFileWriter/write(_:to:)``.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
