import CacheEvents
/// Why a session log cannot be read or written at all. Each message names the file (and the
/// line, where there is one) and says what to do.
///
/// Problems with single lines are not errors but ``SessionLogWarning``s: the reader skips
/// such lines and keeps the rest.
public enum SessionLogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing exists at the path.
    case fileNotFound(file: String)
    /// The path is a directory.
    case isDirectory(file: String)
    /// The file exists but cannot be read (permissions, I/O error).
    case unreadable(file: String, reason: String)
    /// The file has no bytes, so not even a header.
    case empty(file: String)
    /// The first line is not a session-log header (not JSON, or not an object with `format`
    /// and `version`).
    case notASessionLog(file: String, reason: String)
    /// The header names another format.
    case wrongFormat(file: String, found: String)
    /// The header's major version is newer than this reader understands.
    case newerVersion(file: String, found: Int, supported: Int)
    /// The recorder could not create its file.
    case cannotCreate(file: String, reason: String)
    /// Writing to the log failed (disk full, I/O error); events after the failure are lost.
    case writeFailed(file: String, reason: String)
    /// Something that is not a session log appeared at the path during the run (or the rename
    /// over it failed): it is left alone, and the recording stays in the temporary file `keptAt`.
    case keptAside(file: String, keptAt: String)
    /// The temporary file the recording was written to, or its directory, was removed during
    /// the run: nothing of it was kept.
    case lost(file: String, reason: String)

    /// The file the error concerns.
    public var file: String {
        switch self {
        case .fileNotFound(let file), .isDirectory(let file), .unreadable(let file, _), .empty(let file),
            .notASessionLog(let file, _), .wrongFormat(let file, _), .newerVersion(let file, _, _),
            .cannotCreate(let file, _), .writeFailed(let file, _), .keptAside(let file, _), .lost(let file, _):
            return file
        }
    }

    /// The system's or the reader's reason, without the file, for errors that carry one.
    public var reason: String? {
        switch self {
        case .unreadable(_, let reason), .notASessionLog(_, let reason), .cannotCreate(_, let reason), .writeFailed(_, let reason),
            .lost(_, let reason):
            return reason
        case .fileNotFound, .isDirectory, .empty, .wrongFormat, .newerVersion, .keptAside:
            return nil
        }
    }

    /// `capture.jsonl:1: written by a newer CacheScope (format version 2; this one reads up to 1) — upgrade cachescope`
    public var description: String {
        switch self {
        case .fileNotFound(let file):
            return "\(file): no such file"
        case .isDirectory(let file):
            return "\(file): is a directory, not a session log"
        case .unreadable(let file, let reason):
            return "\(file): cannot be read (\(reason))"
        case .empty(let file):
            return "\(file): empty file, not a session log (it has no header line)"
        case .notASessionLog(let file, let reason):
            return "\(file):1: not a CacheScope session log (\(reason))"
        case .wrongFormat(let file, let found):
            return "\(file):1: not a CacheScope session log (format is \"\(found)\", expected \"\(SessionLogHeader.formatName)\")"
        case .newerVersion(let file, let found, let supported):
            return "\(file):1: written by a newer CacheScope (format version \(found); this one reads up to \(supported)) — upgrade cachescope"
        case .cannotCreate(let file, let reason):
            return "\(file): cannot create the session log (\(reason))"
        case .writeFailed(let file, let reason):
            return "\(file): writing the session log failed (\(reason)); it holds the events before the failure, the later ones were not recorded"
        case .lost(let file, let reason):
            return "\(file): the recording was lost: \(reason); nothing of it was kept"
        case .keptAside(let file, let keptAt):
            return "\(file): cannot be replaced (something that is not a session log was put there during the run, or the rename failed), "
                + "and is left alone; the recording is kept at \(keptAt) (rename it to keep it)"
        }
    }
}
