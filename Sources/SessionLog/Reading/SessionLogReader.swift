import CacheEvents
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
/// Speed: large logs are split at line boundaries and parsed on all cores (up to four), then
/// joined without copying; a million events load in about a second in a few megabytes of
/// buffer besides the events themselves (`docs/session-log.md` has the figures).
public enum SessionLogReader {
    /// Lines longer than this (1 MiB) are skipped with a warning.
    public static let maximumLineLength = 1 << 20
    /// At most this many warnings are kept; later ones are only counted.
    public static let maximumWarnings = 1000
    /// Files with at least this many bytes of events are parsed in parallel: 8 MiB.
    static let parallelThreshold = 8 << 20

    /// Reads and indexes the log at `path`.
    /// - Throws: ``SessionLogError`` when the file is missing, a directory, unreadable,
    ///   empty, not a session log, or from a newer major version.
    public static func load(_ path: String) throws(SessionLogError) -> SessionLog {
        try load(path, parts: nil)
    }

    /// Loads with the body split into `parts` ranges (`nil`: one per core for files of at
    /// least `threshold` bytes of events), so tests can check that any split gives the same log.
    static func load(_ path: String, parts: Int?, threshold: Int = parallelThreshold) throws(SessionLogError) -> SessionLog {
        do {
            let file = try InputFile(path: path)
            guard file.size > 0 else { throw SessionLogError.empty(file: path) }
            let (header, headerWarnings, bodyStart) = try readHeader(file, path: path)
            let ranges = try split(file, from: bodyStart, parts: parts, threshold: threshold)
            let parts = try loadParts(file, ranges: ranges, path: path)
            return join(parts, header: header, headerWarnings: headerWarnings, path: path)
        } catch let error as FileAccessProblem {
            throw error.sessionLogError(path)
        } catch let error as SessionLogError {
            throw error
        } catch {
            throw .unreadable(file: path, reason: String(describing: error))
        }
    }

    // MARK: Steps

    private static func readHeader(_ file: InputFile, path: String) throws -> (SessionLogHeader, [SessionLogWarning], Int) {
        var outcome: Result<(SessionLogHeader, [SessionLogWarning]), SessionLogError>?
        try LineReader(file: file, range: 0..<file.size, maximumLength: maximumLineLength, chunkSize: 64 * 1024).forEachLine { line in
            switch line {
            case .tooLong(_, let length):
                outcome = .failure(.notASessionLog(file: path, reason: "the first line is \(length) bytes long, not a header"))
            case .text(let bytes, _, _):
                outcome = Result { () throws(SessionLogError) in try SessionLogHeaderParser.parse(bytes, file: path) }
            }
            return false
        }
        guard let outcome else { throw SessionLogError.empty(file: path) }
        let (header, warnings) = try outcome.get()
        let bodyStart = try LineReader.nextLineStart(in: file, after: 0, limit: file.size)
        return (header, warnings, bodyStart)
    }

    /// The body split at line starts into one range per core (one range when it is small).
    static func split(_ file: InputFile, from start: Int, parts: Int?, threshold: Int = parallelThreshold) throws -> [Range<Int>] {
        let length = file.size - start
        let cores = parts ?? (length >= threshold ? min(4, ProcessInfo.processInfo.activeProcessorCount) : 1)
        guard cores > 1, length > 0 else { return [start..<file.size] }
        var bounds = [start]
        for part in 1..<cores {
            let guess = start + length / cores * part
            bounds.append(max(bounds[bounds.count - 1], try LineReader.nextLineStart(in: file, after: guess, limit: file.size)))
        }
        bounds.append(file.size)
        return zip(bounds, bounds.dropFirst()).map { $0..<$1 }
    }

    private static func loadParts(_ file: InputFile, ranges: [Range<Int>], path: String) throws -> [EventLinesLoader] {
        let results = PartResults(count: ranges.count)
        let work: @Sendable (Int) -> Void = { index in
            var loader = EventLinesLoader(file: path)
            do throws(FileAccessProblem) {
                try LineReader(file: file, range: ranges[index], maximumLength: maximumLineLength).forEachLine { line in
                    loader.consume(line)
                    return true
                }
                results.set(index, .success(loader))
            } catch {
                results.set(index, .failure(error))
            }
        }
        if ranges.count == 1 {
            work(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: ranges.count, execute: work)
        }
        return try results.all()
    }

    // MARK: Joining

    /// One log from the parts: line numbers shifted, times clamped across part boundaries,
    /// warnings merged in line order, events moved into one array.
    private static func join(_ parts: [EventLinesLoader], header: SessionLogHeader, headerWarnings: [SessionLogWarning], path: String) -> SessionLog {
        var warnings = headerWarnings
        var suppressed = 0
        var skipped = 0
        var clamped = 0
        var unknown: [String: (firstLine: Int, count: Int)] = [:]
        var backward: SessionLogWarning?
        var latest = -Double.infinity
        var lineOffset = 1  // the header
        var previous: (event: CacheEvent, line: Int)?  // the last event of the parts before
        for part in parts {
            // A line written twice across two parts' boundary: dropped as within a part, so the
            // same file reads the same however many parts it was read in.
            var shift = 0
            if let before = previous, part.events.count > 0, let firstLine = part.firstEventLine, part.events[0].repeats(before.event) {
                part.events.dropFirst()
                shift = 1
                skipped += 1
                warnings.append(.repeatedEvent(file: path, line: firstLine + lineOffset, previousLine: before.line))
            }
            warnings += part.warnings.map { $0.shifted(by: lineOffset) }
            suppressed += part.suppressedWarnings
            skipped += part.skippedLines
            clamped += part.clampedPositions.count
            for (kind, seen) in part.unknownKinds {
                let known = unknown[kind]
                unknown[kind] = (known?.firstLine ?? seen.firstLine + lineOffset, (known?.count ?? 0) + seen.count)
            }
            // The part's times never decrease; its first ones may lie before the previous part's last.
            if let firstLine = part.firstEventLine, part.events.count > 0, part.events[0].time < latest {
                if backward == nil {
                    backward = .timeWentBackwards(file: path, line: firstLine + lineOffset, time: part.events[0].time, previous: latest)
                }
                var index = 0
                while index < part.events.count, part.events[index].time < latest {
                    part.events[index].time = latest
                    index += 1
                }
                // Events the part had already clamped are counted once.
                clamped += index - part.clampedPositions.prefix { $0 - shift < index }.count
            }
            if backward == nil, let own = part.backwardTime {
                backward = .timeWentBackwards(file: path, line: own.line + lineOffset, time: own.time, previous: own.previous)
            }
            if let last = part.lastTime { latest = max(latest, last) }
            if part.events.count > 0 { previous = (part.events[part.events.count - 1], part.lastEventLine + lineOffset) }
            lineOffset += part.lineCount
        }
        if let backward { warnings.append(backward) }
        for (kind, seen) in unknown {
            warnings.append(.unknownKind(file: path, line: seen.firstLine, kind: kind, count: seen.count))
        }
        warnings = warnings.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
        if warnings.count > maximumWarnings {
            suppressed += warnings.count - maximumWarnings
            warnings.removeLast(warnings.count - maximumWarnings)
        }
        return SessionLog(
            file: path, header: header, events: [CacheEvent](movingFrom: parts.map(\.events)), warnings: warnings,
            suppressedWarnings: suppressed, skippedLines: skipped, unknownKinds: unknown.mapValues(\.count), clampedEvents: clamped)
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

/// Where the parallel workers leave their parts: one slot per worker, each written once by
/// its own worker before `concurrentPerform` returns (`@unchecked Sendable` for that reason;
/// the lock makes the hand-over visible).
private final class PartResults: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<EventLinesLoader, FileAccessProblem>?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<EventLinesLoader, FileAccessProblem>) {
        lock.withLock { slots[index] = result }
    }

    func all() throws(FileAccessProblem) -> [EventLinesLoader] {
        try lock.withLock { slots }.map { slot throws(FileAccessProblem) in try slot!.get() }
    }
}
