public import CacheEvents
import CachingClient
import Foundation
public import HTTPCaching
import HTTPTypes
import SessionLog

/// Loads what `replay` plays: a session log as recorded, or a HAR capture simulated.
///
/// Which of the two a file is comes from its first bytes (``InputPath/format``), not its name:
/// a HAR saved as `capture.json` replays as a HAR, a session log called `x.har` as a log. Only
/// when the content says neither does the name decide (`.har` → the HAR reader), so the error
/// comes from the reader that fits best.
public enum ReplaySource {
    /// A loaded replay.
    public struct Loaded: Sendable {
        /// The events to play.
        public var events: [CacheEvent]
        /// Problems with single lines that were skipped.
        public var warnings: [String]
        /// A one-line note for the status line (skipped lines, simulated capture).
        public var note: String?
    }

    /// Loads `input` as a session log or, when it is one, a HAR capture run through the cache
    /// in `mode`.
    /// - Throws: `SessionLogError` or `HARError` naming the file and line.
    public static func load(_ input: InputPath, mode: CacheMode) async throws -> Loaded {
        if isHAR(input) {
            let archive = try HARReader.load(input.path)
            let (events, leftOutEntries, oversized) = try await HARSimulator.simulateNamingLeftOut(archive, mode: mode)
            let count = archive.log.entries.count
            let leftOut = leftOutEntries.map { Self.leftOutWarning(archive, entry: $0, file: input.path) }
            let cut = oversized.map { entry, size in
                "\(input.path): log.entries[\(entry)]: its body of \(SessionSummary.grouped(size)) bytes is counted as "
                    + "\(SessionSummary.grouped(RecordedResponse.largestPlaceholder)), the most a simulation stands in for"
            }
            var note = "simulated \(count) captured requests through the cache (\(mode.rawValue) mode)"
            if !leftOut.isEmpty { note += "; \(leftOut.count) left out (run with --summary to list them)" }
            if !cut.isEmpty {
                note += "; \(cut.count == 1 ? "1 body" : "\(cut.count) bodies") counted smaller than captured (run with --summary to list them)"
            }
            return Loaded(events: events, warnings: leftOut + cut, note: note)
        }
        let log = try SessionLogReader.load(input.path)
        let warnings = log.warnings.map(\.description)
        let note = log.skippedLines > 0 ? "\(log.skippedLines) unreadable lines skipped (run with --summary to list them)" : nil
        return Loaded(events: log.events, warnings: warnings, note: note)
    }

    /// Why the simulation left entry `entry` out, in a warning that names it: its method is
    /// not a token or, if it is, its URL is not absolute http(s).
    static func leftOutWarning(_ archive: HARArchive, entry index: Int, file: String) -> String {
        let request = archive.log.entries[index].request
        let why =
            HTTPRequest.Method(request.method) == nil
            ? "its method \"\(request.method.prefix(40))\" is not an HTTP method"
            : "its URL \"\(request.url.prefix(200))\" is not an absolute http:// or https:// URL"
        return "\(file): log.entries[\(index)] left out: \(why)"
    }

    /// Checks `path` (``InputPath``) and loads it.
    /// - Throws: ``PathError``, `SessionLogError` or `HARError`.
    public static func load(_ path: String, mode: CacheMode) async throws -> Loaded {
        try await load(InputPath(path, kind: .sessionLogOrHAR, option: "FILE"), mode: mode)
    }

    /// Whether `input` is read as a HAR: its content says so, or says nothing and its name ends
    /// in `.har`.
    public static func isHAR(_ input: InputPath) -> Bool {
        switch input.format {
        case .har: true
        case .sessionLog: false
        case nil: input.path.lowercased().hasSuffix(".har")
        }
    }
}
