import CacheEvents
import CachingClient
import Foundation
import HTTPCaching
import SessionLog

/// Loads what `replay` plays: a session log as recorded, or a HAR capture simulated.
public enum ReplaySource {
    public struct Loaded: Sendable {
        public var events: [CacheEvent]
        public var warnings: [String]
        /// A one-line note for the status line (skipped lines, simulated capture).
        public var note: String?
    }

    public static func load(_ path: String, mode: CacheMode) async throws -> Loaded {
        if isHAR(path) {
            let archive = try HARReader.load(path)
            let events = try await HARSimulator.simulate(archive, mode: mode)
            let count = archive.log.entries.count
            return Loaded(events: events, warnings: [], note: "simulated \(count) captured requests through the cache (\(mode.rawValue) mode)")
        }
        let log = try SessionLogReader.load(path)
        let warnings = log.warnings.map(\.description)
        let note = log.skippedLines > 0 ? "\(log.skippedLines) unreadable lines skipped (run with --summary to list them)" : nil
        return Loaded(events: log.events, warnings: warnings, note: note)
    }

    /// `.har` files, and files whose first non-blank byte opens a JSON object with "log".
    public static func isHAR(_ path: String) -> Bool {
        if path.lowercased().hasSuffix(".har") { return true }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        // The throwing read: a directory or a vanished file is "not HAR", and the reader that
        // follows names the problem.
        guard let bytes = try? handle.read(upToCount: 64) else { return false }
        let head = String(decoding: bytes, as: UTF8.self)
        let compact = head.filter { !$0.isWhitespace }
        return compact.hasPrefix("{\"log\"")
    }
}
