import Foundation

/// Loads session logs robustly: bad input never crashes the reader and never silently hides
/// data.
///
/// - The file must exist, be a regular file, be non-empty and start with a header naming
///   format `cachescope-session` at a version this reader knows — otherwise
///   ``load(_:)`` throws a ``SessionLogError``.
/// - Every other problem costs at most its own line and becomes a ``SessionLogWarning``
///   naming file and line: lines that are not JSON or not events, over-long lines, a
///   truncated last line, unknown event kinds (counted per kind). Invalid UTF-8 is replaced
///   and the event kept; a time earlier than the one before is clamped (and reported once).
///   Unknown fields are ignored.
///
/// ```swift
/// let log = try SessionLogReader.load("capture.jsonl")
/// log.warnings.forEach { print($0) }
/// if let skipped = log.skippedSummary { print(skipped) }
/// ```
///
/// Speed: about a million events a second in release builds, in a few megabytes of buffer
/// besides the events themselves (`docs/session-log.md` has the figures).
public enum SessionLogReader {
    /// Lines longer than this (1 MiB) are skipped with a warning.
    public static let maximumLineLength = 1 << 20
    /// At most this many warnings are kept; later ones are only counted.
    public static let maximumWarnings = 1000

    /// Reads and indexes the log at `path`.
    /// - Throws: ``SessionLogError`` when the file is missing, a directory, unreadable,
    ///   empty, not a session log, or from a newer major version.
    public static func load(_ path: String) throws(SessionLogError) -> SessionLog {
        let file: InputFile
        do {
            file = try InputFile(path: path)
        } catch {
            throw error.sessionLogError(path)
        }
        var loader = SessionLogLoader(path: path, expectedEvents: file.size / 160)
        do {
            try LineReader(file: file, maximumLength: maximumLineLength).forEachLine { loader.consume($0) }
        } catch {
            throw error.sessionLogError(path)
        }
        return try loader.finish()
    }
}

extension FileAccessProblem {
    func sessionLogError(_ path: String) -> SessionLogError {
        switch self {
        case .notFound: return .fileNotFound(file: path)
        case .directory: return .isDirectory(file: path)
        case .unreadable(let reason): return .unreadable(file: path, reason: reason)
        }
    }
}

/// The state of one load: the header (once line 1 is read), the events, and the problems.
private struct SessionLogLoader {
    let path: String
    var header: SessionLogHeader?
    var fatal: SessionLogError?
    var events: [CacheEvent] = []
    var warnings: [SessionLogWarning] = []
    var suppressedWarnings = 0
    var skippedLines = 0
    var unknownKinds: [String: (firstLine: Int, count: Int)] = [:]
    var clampedEvents = 0
    var latestTime = -Double.infinity
    var reportedBackwardTime = false
    var sawAnyByte = false
    var decoder = EventLineDecoder()

    init(path: String, expectedEvents: Int) {
        self.path = path
        events.reserveCapacity(min(expectedEvents, 50_000_000))
    }

    /// Takes one line; returns `false` once the file turned out not to be a session log.
    mutating func consume(_ line: InputLine) -> Bool {
        consumeLine(line)
        return fatal == nil
    }

    private mutating func consumeLine(_ line: InputLine) {
        switch line {
        case .tooLong(let number, let length):
            sawAnyByte = true
            if number == 1 {
                fatal = .notASessionLog(file: path, reason: "the first line is \(length) bytes long, not a header")
                return
            }
            skip(.lineTooLong(file: path, line: number, bytes: length))
        case .text(let bytes, let number, let terminated):
            if !bytes.isEmpty || terminated { sawAnyByte = true }
            if number == 1 {
                readHeader(bytes)
            } else {
                readEvent(bytes, number: number, terminated: terminated)
            }
        }
    }

    // MARK: Header

    private mutating func readHeader(_ bytes: UnsafeBufferPointer<UInt8>) {
        var scanner = JSONScanner(bytes)
        do throws(JSONSyntaxError) {
            let value = try scanner.value()
            try scanner.expectEnd()
            guard value.kind == .object else {
                fatal = .notASessionLog(file: path, reason: "the first line is not a JSON object")
                return
            }
        } catch {
            let what = bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) ? "the first line is empty" : "the first line is not JSON: \(error)"
            fatal = .notASessionLog(file: path, reason: what)
            return
        }
        let fields: HeaderFields
        do {
            fields = try JSONDecoder().decode(HeaderFields.self, from: Data(bytes))
        } catch let error as DecodingError {
            fatal = .notASessionLog(file: path, reason: "header \(DecodingProblem.describe(error))")
            return
        } catch {
            fatal = .notASessionLog(file: path, reason: String(describing: error))
            return
        }
        guard let format = fields.format else {
            fatal = .notASessionLog(file: path, reason: "the first line has no \"format\" field")
            return
        }
        guard format == SessionLogHeader.formatName else {
            fatal = .wrongFormat(file: path, found: format)
            return
        }
        guard let version = fields.version else {
            fatal = .notASessionLog(file: path, reason: "the header has no integer \"version\" field")
            return
        }
        guard version <= SessionLogHeader.currentVersion else {
            fatal = .newerVersion(file: path, found: version, supported: SessionLogHeader.currentVersion)
            return
        }
        let startedAt = fields.startedAt.flatMap(ISO8601Timestamp.date(from:))
        if let text = fields.startedAt, startedAt == nil {
            warn(.badHeaderField(file: path, field: "startedAt", detail: "is not an ISO 8601 time (\"\(text)\")"))
        }
        var header = SessionLogHeader(startedAt: startedAt, redacted: fields.redacted ?? false, producer: fields.producer ?? "")
        header.version = version
        self.header = header
    }

    /// The header's fields, each optional so a missing one gets its own message.
    private struct HeaderFields: Decodable {
        var format: String?
        var version: Int?
        var startedAt: String?
        var redacted: Bool?
        var producer: String?
    }

    // MARK: Events

    private mutating func readEvent(_ bytes: UnsafeBufferPointer<UInt8>, number: Int, terminated: Bool) {
        guard !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { return }  // blank lines carry nothing
        switch decoder.decode(bytes) {
        case .event(var event, let repairedColumn):
            if let repairedColumn { warn(.invalidUTF8(file: path, line: number, column: repairedColumn)) }
            if event.time < latestTime {
                if !reportedBackwardTime {
                    reportedBackwardTime = true
                    warn(.timeWentBackwards(file: path, line: number, time: event.time, previous: latestTime))
                }
                event.time = latestTime
                clampedEvents += 1
            }
            latestTime = event.time
            events.append(event)
        case .unknownKind(let kind):
            skippedLines += 1
            if let known = unknownKinds[kind] {
                unknownKinds[kind] = (known.firstLine, known.count + 1)
            } else {
                unknownKinds[kind] = (number, 1)
            }
        case .notJSON(let error):
            if !terminated {
                skip(.truncatedLastLine(file: path, line: number))
            } else {
                skip(.notJSON(file: path, line: number, detail: "\(error) at column \(error.offset + 1)"))
            }
        case .notAnEvent(let reason):
            skip(.notAnEvent(file: path, line: number, detail: reason))
        }
    }

    private mutating func skip(_ warning: SessionLogWarning) {
        skippedLines += 1
        warn(warning)
    }

    private mutating func warn(_ warning: SessionLogWarning) {
        if warnings.count < SessionLogReader.maximumWarnings {
            warnings.append(warning)
        } else {
            suppressedWarnings += 1
        }
    }

    // MARK: Result

    mutating func finish() throws(SessionLogError) -> SessionLog {
        if let fatal { throw fatal }
        guard sawAnyByte, let header else { throw .empty(file: path) }
        for (kind, seen) in unknownKinds {
            warn(.unknownKind(file: path, line: seen.firstLine, kind: kind, count: seen.count))
        }
        warnings = warnings.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
        return SessionLog(
            file: path, header: header, events: events, warnings: warnings, suppressedWarnings: suppressedWarnings,
            skippedLines: skippedLines, unknownKinds: unknownKinds.mapValues(\.count), clampedEvents: clampedEvents)
    }
}
