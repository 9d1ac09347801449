import CacheScopeApp
import Foundation
import SessionLog
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The typed path values the commands check their options with: every kind of bad path gets
/// one line naming the path and the problem.
@Suite("Path checks: input files, output files, directories, sockets")
struct PathCheckTests {
    // MARK: Input files

    @Test("an input that is a directory, missing, empty, blank or binary is refused with its path and problem",
          arguments: [FileKind.sessionLogOrHAR, .sessionLog, .theme])
    func badInputs(kind: FileKind) throws {
        let scratch = try Scratch()
        let directory = try scratch.directory("dir")
        let missing = scratch.path("missing.jsonl")
        let empty = try scratch.file("empty", "")
        let blank = try scratch.file("blank", "\n  \n\t\n")
        let binary = try scratch.file("garbage.bin", Scratch.garbage)
        let text = try scratch.file("notes.txt", "hello\nworld\n")
        let cases: [(String, PathError)] = [
            (directory, .isDirectory(path: directory, expected: kind)),
            (missing, .notFound(path: missing, expected: kind)),
            (empty, .empty(path: empty, expected: kind)),
            (blank, .empty(path: blank, expected: kind)),
            (binary, .binary(path: binary, expected: kind)),
            (text, .unrecognised(path: text, expected: kind, detail: "it starts with \"hello\", not a JSON object's \"{\"")),
        ]
        for (path, expected) in cases {
            #expect(throws: expected) { try InputPath(path, kind: kind, option: "FILE") }
        }
        #expect(throws: PathError.emptyArgument(option: "FILE")) { try InputPath("", kind: kind, option: "FILE") }
    }

    @Test("the messages name the path and the problem in one line")
    func messages() {
        let path = "/tmp/x"
        #expect(PathError.isDirectory(path: path, expected: .sessionLogOrHAR).description
            == "/tmp/x is a directory, not a session log or HAR file")
        #expect(PathError.notFound(path: path, expected: .theme).description == "/tmp/x does not exist (expected a theme file)")
        #expect(PathError.empty(path: path, expected: .sessionLog).description == "/tmp/x is empty, not a session log")
        #expect(PathError.binary(path: path, expected: .har).description == "/tmp/x holds binary data, not a HAR file")
        #expect(PathError.unreadable(path: path, reason: "Permission denied").description == "/tmp/x cannot be read: Permission denied")
        #expect(PathError.missingDirectory(path: "/nowhere/a.har", directory: "/nowhere").description
            == "/nowhere/a.har cannot be created: directory /nowhere does not exist")
        #expect(PathError.wouldReplace(path: path, expected: .sessionLog).description
            == "/tmp/x exists and is not a session log; leaving it alone (remove it or choose another name)")
        #expect(PathError.notADirectory(path: path).description == "/tmp/x is a file, not a directory")
        #expect(PathError.notASocket(path: path).description == "/tmp/x exists but is not a socket")
    }

    @Test("a device is not a regular file (and is never read, so a FIFO cannot block the check)")
    func device() {
        #expect(throws: PathError.notARegularFile(path: "/dev/null", expected: .sessionLog)) {
            try InputPath("/dev/null", kind: .sessionLog, option: "FILE")
        }
    }

    @Test("the format comes from the first bytes, not the name")
    func sniffing() throws {
        let scratch = try Scratch()
        let har = try scratch.file("capture.json", Scratch.harCapture)
        let log = try scratch.file("session.har", Scratch.sessionLog)
        let withBOM = try scratch.file("bom", [0xEF, 0xBB, 0xBF] + Array(Scratch.harCapture.utf8))
        let other = try scratch.file("other.json", "{\"name\": \"x\"}")
        #expect(try InputPath(har, kind: .sessionLogOrHAR, option: "FILE").format == .har)
        #expect(try InputPath(log, kind: .sessionLogOrHAR, option: "FILE").format == .sessionLog)
        #expect(try InputPath(withBOM, kind: .sessionLogOrHAR, option: "FILE").format == .har)
        #expect(try InputPath(other, kind: .sessionLogOrHAR, option: "FILE").format == nil)
    }

    @Test("a UTF-8 character cut in two by the end of the head is not binary; a bad byte is")
    func partialCharacter() throws {
        let scratch = try Scratch()
        // 7 bytes, then "é" (2 bytes each): the 4,096-byte head ends in the middle of one.
        let text = try scratch.file("long.json", "{\"ab\":\"" + String(repeating: "é", count: 3000) + "\"}")
        #expect(try InputPath(text, kind: .theme, option: "--theme").format == nil)
        let bad = try scratch.file("bad.json", Array("{\"a\":\"".utf8) + [0xC3, 0x28] + Array("\"}".utf8))
        #expect(throws: PathError.binary(path: bad, expected: .theme)) { try InputPath(bad, kind: .theme, option: "--theme") }
    }

    /// As root, /proc passes the access check and refuses new entries all the same: the message
    /// was Foundation's "The file doesn't exist."
    @Test("a directory that cannot be made names the one that failed and why", .enabled(if: geteuid() == 0))
    func uncreatableDirectory() throws {
        let directory = try DirectoryPath("/proc/cachescope-nope/x", option: "--cache-dir")
        #expect(throws: PathError.unwritable(
            path: "/proc/cachescope-nope/x", reason: "cannot create /proc/cachescope-nope: No such file or directory")) { try directory.create() }
    }

    /// Docs said it stopped the command; the dashboard started with the default theme instead.
    @Test("a theme file over 1 MiB is refused before the command starts; one of exactly 1 MiB is taken")
    func largeTheme() throws {
        let scratch = try Scratch()
        let padding = String(repeating: " ", count: (1 << 20) - 2)
        let largest = try scratch.file("largest.json", "{" + padding + "}")
        #expect(try InputPath(largest, kind: .theme, option: "--theme").format == nil)
        let huge = try scratch.file("huge.json", "{" + padding + " }")
        #expect {
            try ThemeChoice(huge)
        } throws: { error in
            "\(error)" == "\(huge) cannot be read: it is 1048577 bytes, and a theme file may have at most 1048576 (1 MiB)"
        }
    }

    @Test("as root a mode-000 file still reads (permissions do not bind root), so only the end-to-end tests, which drop that power, see 'cannot be read'")
    func modeZeroAsRoot() throws {
        let scratch = try Scratch()
        let path = try scratch.file("locked.jsonl", Scratch.sessionLog)
        #expect(chmod(path, 0) == 0)
        if getuid() == 0 {
            #expect(try InputPath(path, kind: .sessionLog, option: "FILE").format == .sessionLog)
        } else {
            #expect(throws: PathError.unreadable(path: path, reason: "Permission denied")) {
                try InputPath(path, kind: .sessionLog, option: "FILE")
            }
        }
    }

    // MARK: Output files

    @Test("an output is refused when it is a directory, its directory is missing or a file, or it holds something else")
    func badOutputs() throws {
        let scratch = try Scratch()
        let directory = try scratch.directory("out.har")
        let inMissing = scratch.path("nowhere/out.har")
        let plainFile = try scratch.file("plain", "x")
        let underFile = plainFile + "/out.har"
        let notes = try scratch.file("notes.har", "my notes\n")
        let binary = try scratch.file("garbage.har", Scratch.garbage)
        let log = try scratch.file("session.jsonl", Scratch.sessionLog)
        let cases: [(String, PathError)] = [
            (directory, .isDirectory(path: directory, expected: .har)),
            (inMissing, .missingDirectory(path: inMissing, directory: scratch.path("nowhere"))),
            (underFile, .notADirectory(path: plainFile)),
            (notes, .wouldReplace(path: notes, expected: .har)),
            (binary, .wouldReplace(path: binary, expected: .har)),
            (log, .wouldReplace(path: log, expected: .har)),
        ]
        for (path, expected) in cases {
            #expect(throws: expected) { try OutputPath(path, kind: .har, option: "--har") }
        }
        #expect(throws: PathError.emptyArgument(option: "--har")) { try OutputPath("", kind: .har, option: "--har") }
        #expect(throws: PathError.notARegularFile(path: "/dev/null", expected: .har)) { try OutputPath("/dev/null", kind: .har, option: "--har") }
    }

    @Test("an output may be new, empty, or of the kind written; a log file may be any text but a session log or a HAR")
    func goodOutputs() throws {
        let scratch = try Scratch()
        let empty = try scratch.file("empty.jsonl", "")
        let log = try scratch.file("old.jsonl", Scratch.sessionLog)
        let har = try scratch.file("old.har", Scratch.harCapture)
        let text = try scratch.file("demo.log", "2026-01-05T10:00:00.000Z info cachescope.demo: started\n")
        _ = try OutputPath(scratch.path("new.jsonl"), kind: .sessionLog, option: "--record")
        _ = try OutputPath(empty, kind: .sessionLog, option: "--record")
        _ = try OutputPath(log, kind: .sessionLog, option: "--record")
        _ = try OutputPath(har, kind: .har, option: "--har")
        _ = try OutputPath(text, kind: .logFile, option: "--log")
        _ = try OutputPath(empty, kind: .logFile, option: "--log")
        let binary = try scratch.file("garbage.log", Scratch.garbage)
        #expect(throws: PathError.wouldReplace(path: binary, expected: .logFile)) { try OutputPath(binary, kind: .logFile, option: "--log") }
        #expect(throws: PathError.wouldReplace(path: har, expected: .sessionLog)) { try OutputPath(har, kind: .sessionLog, option: "--record") }
        // Log lines were appended to them, and the next read warned of lines that are not JSON.
        for (recorded, name) in [(log, "a session log"), (har, "a HAR file")] {
            #expect(throws: PathError.unrecognised(
                path: recorded, expected: .logFile, detail: "it is \(name), which log lines appended to it would spoil; choose another name")) {
                try OutputPath(recorded, kind: .logFile, option: "--log")
            }
        }
    }

    @Test("a staged output is a 0600 file beside the target, renamed into place on commit, removed on discard")
    func staging() throws {
        let scratch = try Scratch()
        let target = try scratch.file("session.jsonl", Scratch.sessionLog)
        #expect(chmod(target, 0o644) == 0)
        let output = try OutputPath(target, kind: .sessionLog, option: "--record")

        let staged = try output.stage()
        #expect(FileProbeFacts.directory(of: staged.temporaryPath) == scratch.url.path)
        #expect(Scratch.mode(staged.temporaryPath) == 0o600)
        try Data("new".utf8).write(to: URL(fileURLWithPath: staged.temporaryPath))
        try staged.commit()
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
        #expect(Scratch.mode(target) == 0o600)
        #expect(try scratch.names() == ["session.jsonl"])

        let discarded = try output.stage()
        discarded.discard()
        #expect(try scratch.names() == ["session.jsonl"])
        do { _ = try output.stage() }   // neither committed nor discarded: removed when released
        #expect(try scratch.names() == ["session.jsonl"])
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
    }

    // MARK: Directories and sockets

    @Test("a cache directory may exist or be creatable; a file in its place, or under it, is refused")
    func directories() throws {
        let scratch = try Scratch()
        let existing = try scratch.directory("store")
        #expect(try DirectoryPath(existing, option: "--cache-dir").existed)
        let nested = scratch.path("a/b/store")
        let fresh = try DirectoryPath(nested, option: "--cache-dir")
        #expect(!fresh.existed)
        try fresh.create()
        #expect(Scratch.mode(nested) == 0o700)

        let empty = try scratch.file("empty", "")
        let binary = try scratch.file("garbage", Scratch.garbage)
        #expect(throws: PathError.notADirectory(path: empty)) { try DirectoryPath(empty, option: "--cache-dir") }
        #expect(throws: PathError.notADirectory(path: binary)) { try DirectoryPath(binary, option: "--cache-dir") }
        #expect(throws: PathError.notADirectory(path: binary)) { try DirectoryPath(binary + "/store", option: "--cache-dir") }
        #expect(throws: PathError.emptyArgument(option: "--cache-dir")) { try DirectoryPath("", option: "--cache-dir") }
    }

    @Test("an attach socket path must exist and be a socket")
    func sockets() throws {
        let scratch = try Scratch()
        let missing = scratch.path("none.sock")
        let file = try scratch.file("file.sock", "x")
        let directory = try scratch.directory("dir.sock")
        #expect(throws: PathError.notFound(path: missing, expected: .attachSocket)) { try SocketPath(missing, option: "SOCKET") }
        #expect(throws: PathError.notASocket(path: file)) { try SocketPath(file, option: "SOCKET") }
        #expect(throws: PathError.isDirectory(path: directory, expected: .attachSocket)) { try SocketPath(directory, option: "SOCKET") }
    }
}

/// The directory part of a path, as the tests compare it.
enum FileProbeFacts {
    static func directory(of path: String) -> String {
        URL(fileURLWithPath: path).deletingLastPathComponent().path
    }
}
