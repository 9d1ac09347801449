import TestFixtures
import CacheEvents
import SessionLog
import Foundation
import Testing

/// Problems that make a file unreadable as a session log: each throws, with a message that
/// names the file (and line 1 where the header is at fault).
@Suite("Session log reader: fatal problems")
struct SessionLogReaderFatalTests {
    static let header = #"{"format":"cachescope-session","version":1,"startedAt":"2025-11-22T09:14:03.512Z","redacted":true,"producer":"cachescope 0.1.0"}"#

    private func loadError(_ path: String) -> SessionLogError? {
        thrownError { () throws(SessionLogError) in _ = try SessionLogReader.load(path) }
    }

    @Test("missing file")
    func missingFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("nope.jsonl")
        let error = loadError(path)
        #expect(error == .fileNotFound(file: path))
        #expect(error?.description == "\(path): no such file")
    }

    @Test("a directory")
    func directory() throws {
        let directory = try TemporaryDirectory()
        let error = loadError(directory.path)
        #expect(error == .isDirectory(file: directory.path))
        #expect(error?.description == "\(directory.path): is a directory, not a session log")
    }

    @Test("empty file")
    func emptyFile() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("empty.jsonl", "")
        let error = loadError(path)
        #expect(error == .empty(file: path))
        #expect(error?.description == "\(path): empty file, not a session log (it has no header line)")
    }

    /// A file whose first line is not a session log header, and why, as the message says after
    /// `PATH:1: not a CacheScope session log`.
    struct BadHeader: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let name: String
        let contents: String
        let why: String
    }

    static let badHeaders = [
        BadHeader(
            testDescription: "first line not JSON", name: "text.jsonl", contents: "hello world\n" + header + "\n",
            why: "the first line is not JSON: unexpected character 'h'"),
        BadHeader(
            testDescription: "a pretty-printed JSON file (a HAR, say) is not a session log", name: "capture.har",
            contents: "{\n  \"log\": {}\n}\n", why: "the first line is not JSON: unexpected end of input"),
        BadHeader(
            testDescription: "header without a format field", name: "noformat.jsonl",
            contents: #"{"seq":1,"t":0,"kind":"error","message":"x"}"# + "\n", why: #"the first line has no "format" field"#),
        BadHeader(
            testDescription: "version that is not an integer", name: "badversion.jsonl",
            contents: #"{"format":"cachescope-session","version":"one"}"# + "\n", why: #"header field "version" should be a number"#),
        BadHeader(
            testDescription: "a header line of only spaces", name: "blank.jsonl", contents: "   \n" + header + "\n",
            why: "the first line is empty"),
        BadHeader(
            testDescription: "a version that is not whole", name: "v1.5.jsonl",
            contents: #"{"format":"cachescope-session","version":1.5}"# + "\n", why: #"header field "version" is 1.5, not a version (a whole number from 1)"#),
        BadHeader(
            testDescription: "a version beyond any integer", name: "vhuge.jsonl",
            contents: #"{"format":"cachescope-session","version":99999999999999999999999}"# + "\n",
            why: #"header field "version" is 1e+23, not a version (a whole number from 1)"#),
        BadHeader(
            testDescription: "version 0", name: "v0.jsonl",
            contents: #"{"format":"cachescope-session","version":0}"# + "\n", why: #"header field "version" is 0, not a version (a whole number from 1)"#),
        BadHeader(
            testDescription: "a negative version", name: "vneg.jsonl",
            contents: #"{"format":"cachescope-session","version":-1}"# + "\n", why: #"header field "version" is -1, not a version (a whole number from 1)"#),
    ]

    @Test("a header after a UTF-8 byte order mark (an editor's) is read")
    func byteOrderMark() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("bom.jsonl", "\u{FEFF}" + Self.header + "\n" + SessionLogReaderWarningTests.line3 + "\n")
        let log = try SessionLogReader.load(path)
        #expect(log.events.map(\.seq) == [2])
        #expect(log.warnings.isEmpty)
    }

    @Test("a first line that is not a session log header", arguments: badHeaders)
    func badHeader(_ file: BadHeader) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(file.name, file.contents)
        #expect(loadError(path)?.description == "\(path):1: not a CacheScope session log (\(file.why))")
    }

    @Test("wrong format name")
    func wrongFormat() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("other.jsonl", #"{"format":"something-else","version":1}"# + "\n")
        let error = loadError(path)
        #expect(error == .wrongFormat(file: path, found: "something-else"))
        #expect(error?.description == "\(path):1: not a CacheScope session log (format is \"something-else\", expected \"cachescope-session\")")
    }

    @Test("newer major version")
    func newerVersion() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("v2.jsonl", #"{"format":"cachescope-session","version":2,"startedAt":"2030-01-01T00:00:00.000Z"}"# + "\n"
            + #"{"seq":1,"t":0,"kind":"error","message":"x"}"# + "\n")
        let error = loadError(path)
        #expect(error == .newerVersion(file: path, found: 2, supported: 1))
        #expect(error?.description == "\(path):1: written by a newer CacheScope (format version 2; this one reads up to 1) — upgrade cachescope")
    }

    @Test("a header alone is a valid, empty log")
    func headerOnly() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("header.jsonl", Self.header)
        let log = try SessionLogReader.load(path)
        #expect(log.events.isEmpty)
        #expect(log.warnings.isEmpty)
        #expect(log.header.redacted)
        #expect(log.header.startedAt == ISO8601Timestamp.date(from: "2025-11-22T09:14:03.512Z"))
        #expect(log.skippedSummary == nil)
    }
}
