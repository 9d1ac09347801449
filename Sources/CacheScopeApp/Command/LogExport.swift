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
        /// The requests that could not become entries, and why (a line for each cause).
        public var leftOut: [String] = []
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
        var leftOut: [String] = []
        if export.requestsWithoutStart > 0 {
            let one = export.requestsWithoutStart == 1
            leftOut.append(
                "\(input.path): \(count(export.requestsWithoutStart)) left out: the log has \(one ? "its end but not its start" : "their ends but not their starts") "
                    + "(it begins in the middle of \(one ? "it" : "them")), so \(one ? "its" : "their") method and URL are unknown")
        }
        if export.unfinishedRequests > 0 {
            let one = export.unfinishedRequests == 1
            leftOut.append("\(input.path): \(count(export.unfinishedRequests)) left out: the log ends before \(one ? "it" : "they") finished")
        }
        return Result(entries: export.archive.log.entries.count, warnings: log.warnings.map(\.description), leftOut: leftOut)
    }

    /// `1 request`, `3 requests`.
    private static func count(_ requests: Int) -> String {
        requests == 1 ? "1 request" : "\(requests) requests"
    }
}
