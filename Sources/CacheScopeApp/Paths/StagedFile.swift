import SystemPackage
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A temporary file beside an output, renamed over it once complete: readers of the output
/// see the old file or the whole new one, never a partial one.
///
/// The temporary file is `.<name>.<random>.tmp` in the output's directory (so the rename stays
/// on one file system), created with mode 0600. If neither ``commit()`` nor ``discard()`` is
/// called, it is removed when the value goes away.
///
/// `Sendable`: its one piece of state, whether it has been settled, is behind a `Mutex`.
public final class StagedFile: Sendable {
    /// Where the content goes first.
    public let temporaryPath: String
    /// Where it ends up.
    public let finalPath: String
    private let settled = Mutex(false)

    /// Creates the temporary file for `finalPath` (exclusively, mode 0600).
    /// - Throws: ``PathError/unwritable(path:reason:)``.
    init(finalPath: String) throws(PathError) {
        let directory = FileProbe.directory(of: finalPath)
        let name = FileProbe.fileName(of: finalPath)
        var lastError = Errno.fileExists
        for _ in 0..<8 {
            let suffix = String(UInt64.random(in: .min ... .max), radix: 16)
            let candidate = (FilePath(directory).appending(".\(name).\(suffix).tmp")).string
            do {
                let descriptor = try FileDescriptor.open(
                    FilePath(candidate), .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
                    permissions: .ownerReadWrite)
                try? descriptor.close()
                temporaryPath = candidate
                self.finalPath = finalPath
                return
            } catch let error as Errno {
                lastError = error
                if error != .fileExists { break }
            } catch {
                lastError = .ioError
                break
            }
        }
        throw .unwritable(path: finalPath, reason: "cannot create a temporary file in \(directory): \(lastError.description)")
    }

    deinit { discard() }

    /// Renames the temporary file over the final path.
    /// - Throws: ``PathError/unwritable(path:reason:)`` when the rename fails; the temporary
    ///   file is removed then.
    public func commit() throws(PathError) {
        guard settle() else { return }
        if rename(temporaryPath, finalPath) != 0 {
            let reason = Errno(rawValue: errno).description
            _ = unlink(temporaryPath)
            throw .unwritable(path: finalPath, reason: reason)
        }
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
