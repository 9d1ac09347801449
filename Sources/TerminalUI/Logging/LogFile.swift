import Synchronization
import SystemPackage

/// A file that log lines are appended to, safe to share between threads.
///
/// Opened with `O_APPEND`, so each line is one `write` that lands at the end even when another
/// process appends to the same file; a lock keeps lines from this process whole.
public final class LogFile: Sendable {
    /// Why a log file could not be opened.
    public enum OpenError: Error, Hashable, Sendable, CustomStringConvertible {
        /// `open(2)` failed; `reason` is the system's explanation.
        case cannotOpen(path: String, reason: String)

        /// A sentence naming the file and the fix.
        public var description: String {
            switch self {
            case .cannotOpen(let path, let reason):
                "cannot open log file \"\(path)\": \(reason) (check that its folder exists and is writable)"
            }
        }
    }

    /// The path the file was opened with.
    public let path: String
    private let descriptor: Mutex<FileDescriptor>

    /// Opens (creating with mode 0600 if needed: logs name URLs) `path` for appending.
    /// - Throws: ``OpenError`` naming the path and the system's reason.
    public init(path: String) throws(OpenError) {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(
                FilePath(path), .writeOnly, options: [.append, .create, .closeOnExec],
                permissions: [.ownerReadWrite]
            )
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")   // an `Errno`: its `strerror` text
        }
        self.path = path
        self.descriptor = Mutex(descriptor)
    }

    deinit {
        descriptor.withLock { descriptor in try? descriptor.close() }
    }

    /// Appends `line` and a newline in a single write. Errors are dropped: logging must never
    /// take the dashboard down.
    public func append(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        descriptor.withLock { descriptor in _ = try? descriptor.writeAll(bytes) }
    }
}
