import CacheEvents
/// Why a HAR file cannot be read or written. Messages name the file and, where the problem
/// has a place, the line (`capture.har:42: log.entries[3].request: missing field "url"`).
public enum HARError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing exists at the path.
    case fileNotFound(file: String)
    /// The path is a directory.
    case isDirectory(file: String)
    /// The file exists but cannot be read.
    case unreadable(file: String, reason: String)
    /// The file has no content.
    case empty(file: String)
    /// The file is not valid JSON.
    case notJSON(file: String, line: Int, column: Int, detail: String)
    /// The JSON is not a HAR (no `log` object).
    case notHAR(file: String, line: Int, detail: String)
    /// A field is missing or has the wrong type; `detail` names it by its path.
    case invalidField(file: String, line: Int, detail: String)
    /// An entry's `startedDateTime` is not an ISO 8601 time.
    case invalidDate(file: String, line: Int, path: String, value: String)
    /// A response body marked `base64` is not valid base64.
    case invalidBase64(file: String, line: Int, path: String)
    /// Writing the HAR failed.
    case writeFailed(file: String, reason: String)

    public var description: String {
        switch self {
        case .fileNotFound(let file):
            return "\(file): no such file"
        case .isDirectory(let file):
            return "\(file): is a directory, not a HAR file"
        case .unreadable(let file, let reason):
            return "\(file): cannot be read (\(reason))"
        case .empty(let file):
            return "\(file): empty file, not a HAR"
        case .notJSON(let file, let line, let column, let detail):
            return "\(file):\(line): not JSON (\(detail) at column \(column))"
        case .notHAR(let file, let line, let detail):
            return "\(file):\(line): not a HAR file (\(detail))"
        case .invalidField(let file, let line, let detail):
            return "\(file):\(line): \(detail)"
        case .invalidDate(let file, let line, let path, let value):
            return "\(file):\(line): \(path) is not an ISO 8601 time (\"\(value)\")"
        case .invalidBase64(let file, let line, let path):
            return "\(file):\(line): \(path) is marked base64 but is not valid base64"
        case .writeFailed(let file, let reason):
            return "\(file): cannot write the HAR (\(reason))"
        }
    }
}
