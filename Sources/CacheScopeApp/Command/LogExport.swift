import SessionLog
public import TrafficFilter

/// What `cachescope export FILE --har OUT` does: a session log read, turned into a HAR with
/// cache fields, and written to `OUT` atomically with mode 0600 (`HARArchive.write(to:)`), so
/// a failure never leaves a partial HAR behind.
///
/// ```swift
/// let result = try LogExport.run(
///     from: InputPath("session.jsonl", kind: .sessionLog, option: "FILE"),
///     to: OutputPath("out.har", kind: .har, option: "--har"))
/// print("wrote \(result.entries) entries")
/// ```
public enum LogExport {
    /// What an export wrote.
    public struct Result: Sendable, Hashable {
        /// HAR entries written.
        public var entries: Int
        /// Problems with single lines of the log, which were skipped.
        public var warnings: [String]
    }

    /// Reads `input`, exports it and writes `output`.
    /// - Throws: ``PathError`` when the input is a HAR, `SessionLogError` when it is not a
    ///   readable session log, `HARError.writeFailed` when the HAR cannot be written.
    /// With a `filter`, only whole matching requests become entries.
    public static func run(from input: InputPath, to output: OutputPath, filter: Filter? = nil) throws -> Result {
        if input.format == .har {
            throw PathError.unrecognised(
                path: input.path, expected: .sessionLog, detail: "it is a HAR file; export reads session logs")
        }
        let log = try SessionLogReader.load(input.path)
        let selected = filter.map { SessionLog(header: log.header, events: RequestSelection.select(log.events, filter: $0), file: log.file) }
        let export = HARExporter().export(selected ?? log)
        try export.archive.write(to: output.path)
        return Result(entries: export.archive.log.entries.count, warnings: log.warnings.map(\.description))
    }
}
