import CacheEvents
import Foundation

/// Reads line 1 of a session log: checks it is a header of a format and version this reader
/// knows, and notes fields it had to ignore.
enum SessionLogHeaderParser {
    /// The header, and any warnings about its fields.
    static func parse(_ line: UnsafeBufferPointer<UInt8>, file: String) throws(SessionLogError) -> (SessionLogHeader, [SessionLogWarning]) {
        // After a UTF-8 byte order mark, as a file's content is recognised (an editor may add one).
        let bytes = line.starts(with: [0xEF, 0xBB, 0xBF]) ? UnsafeBufferPointer(rebasing: line[3...]) : line
        var scanner = JSONScanner(bytes)
        let value: JSONSpan
        do throws(JSONSyntaxError) {
            value = try scanner.value()
            try scanner.expectEnd()
        } catch {
            let blank = bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 }
            throw .notASessionLog(file: file, reason: blank ? "the first line is empty" : "the first line is not JSON: \(error)")
        }
        guard value.kind == .object else { throw .notASessionLog(file: file, reason: "the first line is not a JSON object") }
        let fields: HeaderFields
        do {
            fields = try JSONDecoder().decode(HeaderFields.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw .notASessionLog(file: file, reason: "header \(DecodingProblem.describe(error))")
        } catch {
            throw .notASessionLog(file: file, reason: String(describing: error))
        }
        guard let format = fields.format else {
            throw .notASessionLog(file: file, reason: "the first line has no \"format\" field")
        }
        guard format == SessionLogHeader.formatName else { throw .wrongFormat(file: file, found: format) }
        guard let number = fields.version else {
            throw .notASessionLog(file: file, reason: "the header has no integer \"version\" field")
        }
        guard number >= 1, number == number.rounded(), let version = Int(exactly: number) else {
            let written = Int(exactly: number).map(String.init) ?? "\(number)"  // `0`, not `0.0`
            throw .notASessionLog(file: file, reason: "header field \"version\" is \(written), not a version (a whole number from 1)")
        }
        guard version <= SessionLogHeader.currentVersion else {
            throw .newerVersion(file: file, found: version, supported: SessionLogHeader.currentVersion)
        }
        var warnings: [SessionLogWarning] = []
        let startedAt = fields.startedAt.flatMap(ISO8601Timestamp.date(from:))
        if let text = fields.startedAt, startedAt == nil {
            warnings.append(.badHeaderField(file: file, field: "startedAt", detail: "is not an ISO 8601 time (\"\(text)\")"))
        }
        var header = SessionLogHeader(startedAt: startedAt, redacted: fields.redacted ?? false, producer: fields.producer ?? "")
        header.version = version
        return (header, warnings)
    }

    /// The header's fields, each optional so a missing one gets its own message.
    private struct HeaderFields: Decodable {
        var format: String?
        /// Read as any number, so `1.5` or `0` gets a message of its own.
        var version: Double?
        var startedAt: String?
        var redacted: Bool?
        var producer: String?
    }
}
