/// Why a path given on the command line cannot be used, naming the path and the problem in one
/// line a user can act on.
///
/// ```text
/// /tmp/x is a directory, not a session log or HAR file
/// capture.jsonl cannot be read: Permission denied
/// /nowhere/out.har cannot be created: directory /nowhere does not exist
/// ```
///
/// The commands print ``description`` after `cachescope: COMMAND: ` and exit with status 64
/// (`EX_USAGE`).
public enum PathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The option was given an empty string; `option` names it (`--record`).
    case emptyArgument(option: String)
    /// Nothing exists at the path (or a component of it is not a directory).
    case notFound(path: String, expected: FileKind)
    /// The path is a directory where a file was expected.
    case isDirectory(path: String, expected: FileKind)
    /// The path is not a regular file (a device, FIFO or socket) where a file was expected.
    case notARegularFile(path: String, expected: FileKind)
    /// The path exists but is not a directory where one was expected.
    case notADirectory(path: String)
    /// The file or directory exists but cannot be read; `reason` is the system's.
    case unreadable(path: String, reason: String)
    /// The file or directory cannot be written or created; `reason` is the system's.
    case unwritable(path: String, reason: String)
    /// An output's directory does not exist.
    case missingDirectory(path: String, directory: String)
    /// The file has no content (or only white space).
    case empty(path: String, expected: FileKind)
    /// The file holds binary data (NUL bytes or invalid UTF-8).
    case binary(path: String, expected: FileKind)
    /// The file is text but does not look like what was expected; `detail` says why.
    case unrecognised(path: String, expected: FileKind, detail: String)
    /// An output path names an existing file that is not of the kind written, which is left
    /// alone rather than replaced or appended to.
    case wouldReplace(path: String, expected: FileKind)
    /// The path exists but is not a socket.
    case notASocket(path: String)
    /// The path is a symbolic link, which the attach sockets are never reached through.
    case symbolicLinkToSocket(path: String)

    /// The path the error is about (the option's name for ``emptyArgument(option:)``).
    public var path: String {
        switch self {
        case .emptyArgument(let option): option
        case .notFound(let path, _), .isDirectory(let path, _), .notARegularFile(let path, _), .notADirectory(let path),
            .unreadable(let path, _), .unwritable(let path, _), .missingDirectory(let path, _), .empty(let path, _),
            .binary(let path, _), .unrecognised(let path, _, _), .wouldReplace(let path, _), .notASocket(let path),
            .symbolicLinkToSocket(let path):
            path
        }
    }

    /// One line: the path, then the problem.
    public var description: String {
        switch self {
        case .emptyArgument(let option):
            "\(option) needs a path, not an empty string"
        case .notFound(let path, let expected):
            "\(path) does not exist (expected \(expected.withArticle))"
        case .isDirectory(let path, let expected):
            "\(path) is a directory, not \(expected.withArticle)"
        case .notARegularFile(let path, let expected):
            "\(path) is not a regular file, so not \(expected.withArticle)"
        case .notADirectory(let path):
            "\(path) is a file, not a directory"
        case .unreadable(let path, let reason):
            "\(path) cannot be read: \(reason)"
        case .unwritable(let path, let reason):
            "\(path) cannot be written: \(reason)"
        case .missingDirectory(let path, let directory):
            "\(path) cannot be created: directory \(directory) does not exist"
        case .empty(let path, let expected):
            "\(path) is empty, not \(expected.withArticle)"
        case .binary(let path, let expected):
            "\(path) holds binary data, not \(expected.withArticle)"
        case .unrecognised(let path, let expected, let detail):
            "\(path) is not \(expected.withArticle) (\(detail))"
        case .wouldReplace(let path, let expected):
            "\(path) exists and is not \(expected.withArticle); leaving it alone (remove it or choose another name)"
        case .notASocket(let path):
            "\(path) exists but is not a socket"
        case .symbolicLinkToSocket(let path):
            "\(path) is a symbolic link; CacheScope does not follow links for its sockets — give the real path"
        }
    }
}
