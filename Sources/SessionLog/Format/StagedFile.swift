public import Foundation
import SystemPackage
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A temporary file beside an output, renamed over it once complete: readers of the output
/// see the old file or the whole new one, never a partial one. Session logs (`--record`) and
/// HAR exports are both written this way.
///
/// The temporary file is `.<name>.<random>.tmp` in the output's directory (so the rename stays
/// on one file system), created exclusively with mode 0600: it holds URLs and headers. If
/// neither ``commit()`` nor ``discard()`` is called, it is removed when the value goes away.
///
/// ```swift
/// let staged = try StagedFile(finalPath: "out.har")
/// try staged.write(bytes)     // or hand staged.temporaryPath to a writer
/// try staged.commit()         // renamed to out.har
/// ```
///
/// `Sendable`: its one piece of state, whether it has been settled, is behind a `Mutex`.
public final class StagedFile: Sendable {
    /// Where the content goes first.
    public let temporaryPath: String
    /// Where it ends up.
    public let finalPath: String
    private let settled = Mutex(false)

    /// Creates the temporary file for `finalPath` (exclusively, mode 0600).
    /// - Throws: ``SessionLogError/cannotCreate(file:reason:)`` naming `finalPath`.
    public init(finalPath: String) throws(SessionLogError) {
        var directory = FilePath(finalPath)
        let name = directory.lastComponent?.string ?? finalPath
        if !directory.removeLastComponent() || directory.isEmpty { directory = directory.isAbsolute ? "/" : "." }
        var lastError = Errno.fileExists
        for _ in 0..<8 {
            let candidate = directory.appending(".\(name).\(String(UInt64.random(in: .min ... .max), radix: 16)).tmp")
            do {
                let descriptor = try FileDescriptor.open(
                    candidate, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec], permissions: .ownerReadWrite)
                try? descriptor.close()
                temporaryPath = candidate.string
                self.finalPath = finalPath
                return
            } catch {
                lastError = error as? Errno ?? .ioError
                if lastError != .fileExists { break }
            }
        }
        throw .cannotCreate(file: finalPath, reason: "cannot create a temporary file in \(directory): \(lastError.description)")
    }

    /// Whether `candidate` is the name of a temporary file made for an output called `name`
    /// (`.NAME.HEX.tmp`, as ``init(finalPath:)`` makes it): what a run killed before its end
    /// leaves beside its output.
    public static func isTemporaryName(_ candidate: String, of name: String) -> Bool {
        guard candidate.hasPrefix(".\(name)."), candidate.hasSuffix(".tmp") else { return false }
        let random = candidate.dropFirst(name.count + 2).dropLast(4)
        return (1...16).contains(random.count) && random.allSatisfy(\.isHexDigit)
    }

    deinit { discard() }

    /// Writes `bytes` as the whole content of the temporary file and forces them to disk.
    /// - Throws: ``SessionLogError/writeFailed(file:reason:)`` naming the final path.
    public func write(_ bytes: Data) throws(SessionLogError) {
        do {
            let descriptor = try FileDescriptor.open(FilePath(temporaryPath), .writeOnly, options: [.truncate, .closeOnExec])
            try descriptor.closeAfter {
                _ = try descriptor.writeAll(bytes)
                if fsync(descriptor.rawValue) != 0, errno != EINVAL { throw Errno(rawValue: errno) }
            }
        } catch {
            throw .writeFailed(file: finalPath, reason: (error as? Errno)?.description ?? String(describing: error))
        }
    }

    /// Renames the temporary file over the final path. With `replaceable` (a recording), only
    /// over nothing, or over a regular file it can read whose first bytes `replaceable`
    /// accepts; anything else put there during the run — a file it refuses, a directory, a
    /// FIFO, an unreadable file — is left alone and the content stays in the temporary file,
    /// as it does when the rename fails.
    /// - Throws: ``SessionLogError/keptAside(file:keptAt:)`` then;
    ///   ``SessionLogError/lost(file:reason:)`` when the temporary file is gone;
    ///   ``SessionLogError/writeFailed(file:reason:)`` when the rename fails without
    ///   `replaceable` (a HAR export: the temporary file is removed then).
    public func commit(replaceable: (([UInt8]) -> Bool)? = nil) throws(SessionLogError) {
        guard settle() else { return }
        if let replaceable, !Self.mayReplace(finalPath, replaceable) {
            throw .keptAside(file: finalPath, keptAt: temporaryPath)
        }
        guard rename(temporaryPath, finalPath) != 0 else { return }
        let failure = Errno(rawValue: errno)
        if failure == .noSuchFileOrDirectory, access(temporaryPath, F_OK) != 0 {
            throw .lost(file: finalPath, reason: "its temporary file \(temporaryPath) (or its directory) was removed during the run")
        }
        if replaceable != nil { throw .keptAside(file: finalPath, keptAt: temporaryPath) }
        _ = unlink(temporaryPath)
        throw .writeFailed(file: finalPath, reason: failure.description)
    }

    /// Whether `path` holds nothing, or a regular file whose first 4 KiB `replaceable` accepts
    /// (read without blocking, not through a link).
    private static func mayReplace(_ path: String, _ replaceable: ([UInt8]) -> Bool) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return errno == ENOENT }
        guard info.st_mode & S_IFMT == S_IFREG else { return false }
        guard let descriptor = try? FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec, .noFollow, .nonBlocking]) else {
            return false
        }
        defer { try? descriptor.close() }
        var bytes = [UInt8](repeating: 0, count: 4096)
        guard let count = try? bytes.withUnsafeMutableBytes({ try descriptor.read(into: $0) }) else { return false }
        return count == 0 || replaceable(Array(bytes.prefix(count)))
    }

    /// Removes the temporary file; the final path is left as it was. Idempotent.
    public func discard() {
        guard settle() else { return }
        _ = unlink(temporaryPath)
    }

    /// Marks the file settled; false when it already was.
    private func settle() -> Bool {
        settled.withLock { done in
            defer { done = true }
            return !done
        }
    }
}
