import Foundation
public import Logging

/// A swift-log `LogHandler` that appends one line per message to a ``LogFile``, so the
/// dashboard can log while it owns the terminal (nothing may be printed then).
///
/// Line format, one entry per line (newlines and control characters in messages and
/// metadata are escaped with ``SafeText``, so `cat`ing the log is safe too):
///
/// ```text
/// 2026-11-22T10:15:03.412Z warning cachescope.dashboard: theme reload failed path=/x.json (Themes.swift:42)
/// ```
///
/// ```swift
/// try FileLogHandler.bootstrap(path: "/tmp/cachescope.log", level: .debug)
/// Logger(label: "cachescope.dashboard").info("started")
/// ```
public struct FileLogHandler: LogHandler {
    /// The logger's label, written on every line.
    public let label: String
    /// Where lines go; shared by every handler made from the same file.
    public let file: LogFile
    /// Messages below this level are dropped by `Logger` (default `.info`).
    public var logLevel: Logger.Level
    /// Metadata added to every message of this handler.
    public var metadata: Logger.Metadata = [:]
    /// Contextual metadata merged in at each message.
    public var metadataProvider: Logger.MetadataProvider?

    private static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// Creates a handler writing to `file`.
    public init(label: String, file: LogFile, level: Logger.Level = .info,
                metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.file = file
        self.logLevel = level
        self.metadataProvider = metadataProvider
    }

    /// Makes every `Logger` in the process write to `path`. Call once, early in `main`:
    /// swift-log allows only one bootstrap per process.
    /// - Throws: ``LogFile/OpenError`` when the file cannot be opened.
    public static func bootstrap(path: String, level: Logger.Level = .info) throws(LogFile.OpenError) {
        let file = try LogFile(path: path)
        LoggingSystem.bootstrap { label in
            FileLogHandler(label: label, file: file, level: level)
        }
    }

    /// Gets or sets one metadata value.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Formats the event as one line and appends it.
    public func log(event: LogEvent) {
        file.append(Self.format(event, label: label, metadata: mergedMetadata(event.metadata), at: Date()))
    }

    // MARK: Formatting

    static func format(_ event: LogEvent, label: String, metadata: Logger.Metadata, at date: Date) -> String {
        var line = "\(date.formatted(timestampStyle)) \(event.level) \(label): \(SafeText.escape(event.message.description))"
        for key in metadata.keys.sorted() {
            line += " \(SafeText.escape(key))=\(SafeText.escape(metadata[key]!.description))"
        }
        let fileName = event.file.split(separator: "/").last.map(String.init) ?? event.file
        return line + " (\(fileName):\(event.line))"
    }

    private func mergedMetadata(_ explicit: Logger.Metadata?) -> Logger.Metadata {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let explicit { merged.merge(explicit) { _, new in new } }
        return merged
    }
}
