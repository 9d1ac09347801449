import CacheEvents
/// A problem with one line of a session log that the reader worked around: the line was
/// skipped (or, for bad UTF-8 and backward times, repaired) and everything else was kept.
/// Each message starts with `FILE:LINE:` like a compiler's.
///
/// ```text
/// capture.jsonl:17: not JSON (unexpected character 'x' at column 1); line skipped
/// ```
public enum SessionLogWarning: Sendable, Hashable, CustomStringConvertible {
    /// The line is not valid JSON; `detail` says what and where (column in bytes).
    case notJSON(file: String, line: Int, detail: String)
    /// The line is JSON but not an event (not an object, a missing field, a wrong type).
    case notAnEvent(file: String, line: Int, detail: String)
    /// The last line ends without a newline and is cut short, as when the writer was killed
    /// mid-line.
    case truncatedLastLine(file: String, line: Int)
    /// The line is longer than ``SessionLogReader/maximumLineLength``.
    case lineTooLong(file: String, line: Int, bytes: Int)
    /// The line holds bytes that are not UTF-8; they were replaced by U+FFFD and the event kept.
    case invalidUTF8(file: String, line: Int, column: Int)
    /// Events of a kind this version does not know (from a newer writer): `count` lines,
    /// the first at `line`, were skipped.
    case unknownKind(file: String, line: Int, kind: String, count: Int)
    /// An event's time is earlier than the one before it. Reported once, for the first such
    /// line; from there on times are clamped so they never decrease.
    case timeWentBackwards(file: String, line: Int, time: Double, previous: Double)
    /// A header field is present but unusable (e.g. `startedAt` not ISO 8601).
    case badHeaderField(file: String, field: String, detail: String)
    /// The line holds the same event as `previousLine` (a line written twice): counted once.
    case repeatedEvent(file: String, line: Int, previousLine: Int)

    /// The file the warning concerns.
    public var file: String {
        switch self {
        case .notJSON(let file, _, _), .notAnEvent(let file, _, _), .truncatedLastLine(let file, _),
            .lineTooLong(let file, _, _), .invalidUTF8(let file, _, _), .unknownKind(let file, _, _, _),
            .timeWentBackwards(let file, _, _, _), .badHeaderField(let file, _, _), .repeatedEvent(let file, _, _):
            return file
        }
    }

    /// The 1-based line number the warning concerns (1 for header problems).
    public var line: Int {
        switch self {
        case .notJSON(_, let line, _), .notAnEvent(_, let line, _), .truncatedLastLine(_, let line),
            .lineTooLong(_, let line, _), .invalidUTF8(_, let line, _), .unknownKind(_, let line, _, _),
            .timeWentBackwards(_, let line, _, _), .repeatedEvent(_, let line, _):
            return line
        case .badHeaderField:
            return 1
        }
    }

    /// Whether the line's event was lost (as opposed to repaired and kept).
    public var skipsLine: Bool {
        switch self {
        case .notJSON, .notAnEvent, .truncatedLastLine, .lineTooLong, .unknownKind, .repeatedEvent: return true
        case .invalidUTF8, .timeWentBackwards, .badHeaderField: return false
        }
    }

    public var description: String {
        let place = "\(file):\(line)"
        switch self {
        case .notJSON(_, _, let detail):
            return "\(place): not JSON (\(detail)); line skipped"
        case .notAnEvent(_, _, let detail):
            return "\(place): not an event (\(detail)); line skipped"
        case .truncatedLastLine:
            return "\(place): last line is incomplete (the writer stopped mid-line); line skipped"
        case .lineTooLong(_, _, let bytes):
            return "\(place): line is \(bytes) bytes, longer than the \(SessionLogReader.maximumLineLength) byte limit; line skipped"
        case .invalidUTF8(_, _, let column):
            return "\(place): invalid UTF-8 at column \(column), replaced by U+FFFD; event kept"
        case .unknownKind(_, _, let kind, let count):
            let lines = count == 1 ? "1 line" : "\(count) lines"
            return "\(place): unknown event kind \"\(kind)\" (written by a newer CacheScope?); \(lines) of this kind skipped"
        case .timeWentBackwards(_, _, let time, let previous):
            return "\(place): time goes backwards (t=\(time) after t=\(previous)); "
                + "times are clamped from here on so they never decrease (reported once)"
        case .badHeaderField(_, let field, let detail):
            return "\(place): header field \"\(field)\" \(detail); ignored"
        case .repeatedEvent(_, _, let previousLine):
            return "\(place): the same event as line \(previousLine) (a line written twice); line skipped"
        }
    }
}
