import CacheEvents
import Foundation

/// Reads HAR files (DevTools' "Save all as HAR", Firefox, CacheScope's own exports) with
/// errors that name the file and line.
///
/// ```swift
/// let archive = try HARReader.load("capture.har")
/// for request in archive.replayRequests() { … }   // what a simulator needs, in start order
/// ```
///
/// Beyond JSON syntax and the HAR structure, it checks what a replay relies on: every
/// entry's `startedDateTime` is ISO 8601 and every base64 body decodes.
public enum HARReader {
    /// Reads and checks the HAR at `path`.
    /// - Throws: ``HARError`` naming the file and, where it can, the line.
    public static func load(_ path: String) throws(HARError) -> HARArchive {
        let bytes: [UInt8]
        do {
            bytes = try InputFile(path: path).readAll()
        } catch {
            switch error {
            case .notFound: throw .fileNotFound(file: path)
            case .directory: throw .isDirectory(file: path)
            case .unreadable(let reason): throw .unreadable(file: path, reason: reason)
            }
        }
        return try decode(bytes, file: path)
    }

    /// Decodes and checks HAR bytes; `file` names them in errors.
    public static func decode(_ bytes: [UInt8], file: String) throws(HARError) -> HARArchive {
        var bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }  // a UTF-8 byte order mark
        guard bytes.contains(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) else { throw .empty(file: file) }
        return try bytes.withUnsafeBufferPointer { buffer throws(HARError) in
            try validateSyntax(buffer, file: file)
            let archive = try decodeArchive(buffer, file: file)
            try validateEntries(archive, buffer, file: file)
            return archive
        }
    }

    // MARK: Steps

    private static func validateSyntax(_ bytes: UnsafeBufferPointer<UInt8>, file: String) throws(HARError) {
        var scanner = JSONScanner(bytes)
        let root: JSONSpan
        do throws(JSONSyntaxError) {
            root = try scanner.value()
            try scanner.expectEnd()
        } catch {
            let (line, column) = error.location(in: bytes)
            throw .notJSON(file: file, line: line, column: column, detail: error.description)
        }
        guard root.kind == .object else {
            let (line, _) = TextPosition.lineAndColumn(ofOffset: root.start, in: bytes)
            throw .notHAR(file: file, line: line, detail: "the top level is not an object")
        }
    }

    private static func decodeArchive(_ bytes: UnsafeBufferPointer<UInt8>, file: String) throws(HARError) -> HARArchive {
        do {
            return try JSONDecoder().decode(HARArchive.self, from: Data(bytes))
        } catch let error as DecodingError {
            let path = codingPath(of: error)
            let line = TextPosition.lineAndColumn(ofOffset: JSONLocator.offset(of: path, in: bytes), in: bytes).line
            if case .keyNotFound(let key, let context) = error, context.codingPath.isEmpty, key.stringValue == "log" {
                throw .notHAR(file: file, line: line, detail: "no \"log\" object")
            }
            if path.count == 1, path[0].stringValue == "log" {
                throw .notHAR(file: file, line: line, detail: "\"log\" is not an object")
            }
            throw .invalidField(file: file, line: line, detail: DecodingProblem.describe(error))
        } catch {
            throw .invalidField(file: file, line: 1, detail: String(describing: error))
        }
    }

    private static func validateEntries(_ archive: HARArchive, _ bytes: UnsafeBufferPointer<UInt8>, file: String) throws(HARError) {
        for (index, entry) in archive.log.entries.enumerated() {
            if entry.startDate == nil {
                let path: [PathKey] = ["log", "entries", PathKey(intValue: index), "startedDateTime"]
                throw .invalidDate(
                    file: file, line: line(of: path, in: bytes), path: DecodingProblem.path(path), value: entry.startedDateTime)
            }
            if !CacheEvent.isPossibleStatus(entry.response.status) {
                let path: [PathKey] = ["log", "entries", PathKey(intValue: index), "response", "status"]
                throw .invalidField(
                    file: file, line: line(of: path, in: bytes),
                    detail: "field \"\(DecodingProblem.path(path))\" is \(entry.response.status), not an HTTP status (100 to 999, or 0 for no response)")
            }
            if entry.response.content.isBase64, entry.response.content.text != nil, entry.response.content.body == nil {
                let path: [PathKey] = ["log", "entries", PathKey(intValue: index), "response", "content", "text"]
                throw .invalidBase64(file: file, line: line(of: path, in: bytes), path: DecodingProblem.path(path))
            }
        }
    }

    // MARK: Locations

    private static func line(of path: [any CodingKey], in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        TextPosition.lineAndColumn(ofOffset: JSONLocator.offset(of: path, in: bytes), in: bytes).line
    }

    private static func codingPath(of error: DecodingError) -> [any CodingKey] {
        switch error {
        case .keyNotFound(_, let context): return context.codingPath
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): return context.codingPath
        @unknown default: return []
        }
    }
}

/// A coding-path element built by hand: a member name or an array index.
struct PathKey: CodingKey, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }

    init(stringLiteral value: String) { self.init(stringValue: value) }
    init(integerLiteral value: Int) { self.init(intValue: value) }
}
