import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEndTests {
    /// Every path option of the real binary against a directory, a missing file, an unreadable
    /// file, an empty file and binary garbage: one clear line and status 64 where the path
    /// cannot be used, never a trap, a usage dump or a partial file.
    @Suite("Path options: every bad path is one line and status 64", .serialized, .timeLimit(.minutes(2)))
    struct PathOptionTests {
        /// A valid session log to use where an option needs one.
        static func sessionLog(in directory: TemporaryDirectory) throws -> String {
            let path = try CLIFixtures.sessionLogFile(in: directory, name: "valid.jsonl")
            return path
        }

        static func problem(_ kind: InputKind, expected: String) -> String {
            switch kind {
            case .directory: "is a directory, not \(expected)"
            case .missing: "does not exist"
            case .unreadable: "cannot be read: Permission denied"
            case .empty: "is empty, not \(expected)"
            case .garbage: "holds binary data, not \(expected)"
            }
        }

        // MARK: Inputs

        @Test("replay FILE", arguments: InputKind.allCases)
        func replayInput(kind: InputKind) async throws {
            let directory = try TemporaryDirectory()
            let path = try kind.make(in: directory, name: "capture.jsonl", content: CLIFixtures.sessionLog)
            let output = try await Binary.run(["replay", path, "--summary"], for: kind)
            PathFailure(output: output).check(
                command: "replay", path: path, problem: Self.problem(kind, expected: "a session log or HAR file"))
            #expect(output.stdout.isEmpty)
        }

        @Test("export FILE --har OUT: a bad FILE, and OUT is not created", arguments: InputKind.allCases)
        func exportInput(kind: InputKind) async throws {
            let directory = try TemporaryDirectory()
            let path = try kind.make(in: directory, name: "session.jsonl", content: CLIFixtures.sessionLog)
            let out = directory.path("out.har")
            let output = try await Binary.run(["export", path, "--har", out], for: kind)
            PathFailure(output: output).check(command: "export", path: path, problem: Self.problem(kind, expected: "a session log"))
            #expect(!FileManager.default.fileExists(atPath: out))
        }

        @Test("--theme PATH (demo and replay share it)", arguments: InputKind.allCases)
        func themeInput(kind: InputKind) async throws {
            let directory = try TemporaryDirectory()
            let path = try kind.make(in: directory, name: "theme.json", content: "{\"roles\": {}}\n")
            let demo = try await Binary.run(
                ["demo", "--no-ui", "--duration", "1", "--theme", path, "--log", directory.path("demo.log")], for: kind)
            PathFailure(output: demo).check(command: "demo", path: path, problem: Self.problem(kind, expected: "a theme file"))
            #expect(demo.stdout.isEmpty, "the demo did not start")
            let log = try Self.sessionLog(in: directory)
            let replay = try await Binary.run(["replay", log, "--summary", "--theme", path], for: kind)
            PathFailure(output: replay).check(command: "replay", path: path, problem: Self.problem(kind, expected: "a theme file"))
        }

        @Test("--theme NAME that is no built-in theme")
        func unknownTheme() async throws {
            let directory = try TemporaryDirectory()
            let output = try await Binary.run(["demo", "--no-ui", "--duration", "1", "--theme", "solarised", "--log", directory.path("demo.log")])
            #expect(output.status == 64)
            #expect(output.stderr == "cachescope: demo: unknown theme \"solarised\": built-in themes are default, light, solarized-dark, high-contrast, mono; to load a file, pass a path that contains \"/\" or ends in \".json\"\n")
        }

        // MARK: Outputs

        @Test("export --har OUT: a directory, an unwritable file or a file that is no HAR is refused; a missing or empty OUT is written 0600",
              arguments: InputKind.allCases)
        func exportOutput(kind: InputKind) async throws {
            let directory = try TemporaryDirectory()
            let log = try Self.sessionLog(in: directory)
            let out = try kind.make(in: directory, name: "out.har")
            let output = try await Binary.run(["export", log, "--har", out], for: kind)
            switch kind {
            case .missing, .empty:
                #expect(output.status == 0, "\(output.stderr)")
                #expect(output.stdout == "wrote 2 entries to \(out)\n")
                #expect(CLIFixtures.mode(out) == 0o600)
            case .directory:
                PathFailure(output: output).check(command: "export", path: out, problem: "is a directory, not a HAR file")
            case .unreadable:
                PathFailure(output: output).check(command: "export", path: out, problem: "cannot be written: Permission denied")
            case .garbage:
                PathFailure(output: output).check(command: "export", path: out, problem: "exists and is not a HAR file; leaving it alone")
                #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(InputKind.garbageBytes), "left as it was")
            }
            #expect(try CLIFixtures.temporaryFiles(in: directory).isEmpty)
        }

        @Test("export --har into a missing directory")
        func exportMissingDirectory() async throws {
            let directory = try TemporaryDirectory()
            let log = try Self.sessionLog(in: directory)
            let out = directory.path("nowhere/out.har")
            let output = try await Binary.run(["export", log, "--har", out])
            PathFailure(output: output).check(
                command: "export", path: out, problem: "cannot be created: directory \(directory.path("nowhere")) does not exist")
        }

        @Test("demo --record FILE: refused before the demo starts", arguments: InputKind.allCases.filter { $0 != .missing && $0 != .empty })
        func recordOutput(kind: InputKind) async throws {
            let directory = try TemporaryDirectory()
            let path = try kind.make(in: directory, name: "session.jsonl")
            let output = try await Binary.run(
                ["demo", "--no-ui", "--duration", "1", "--record", path, "--log", directory.path("demo.log")], for: kind)
            let problem = switch kind {
            case .directory: "is a directory, not a session log"
            case .unreadable: "cannot be written: Permission denied"
            default: "exists and is not a session log; leaving it alone"
            }
            PathFailure(output: output).check(command: "demo", path: path, problem: problem)
            #expect(output.stdout.isEmpty, "the demo did not start")
            #expect(try CLIFixtures.temporaryFiles(in: directory).isEmpty)
        }

        @Test("demo --record into a missing directory fails before the demo starts")
        func recordMissingDirectory() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.path("nowhere/session.jsonl")
            let started = ContinuousClock.now
            let output = try await Binary.run(["demo", "--no-ui", "--duration", "30", "--record", path, "--log", directory.path("demo.log")])
            PathFailure(output: output).check(
                command: "demo", path: path, problem: "cannot be created: directory \(directory.path("nowhere")) does not exist")
            #expect(ContinuousClock.now - started < .seconds(20), "it did not run the 30 s demo first")
            #expect(output.stdout.isEmpty)
        }

        @Test("demo --log FILE: a directory, an unwritable file or binary garbage is refused", arguments: InputKind.allCases.filter { $0 != .missing && $0 != .empty })
        func logOutput(kind: InputKind) async throws {
            let directory = try TemporaryDirectory()
            let path = try kind.make(in: directory, name: "demo.log")
            let output = try await Binary.run(["demo", "--no-ui", "--duration", "1", "--log", path], for: kind)
            let problem = switch kind {
            case .directory: "is a directory, not a log file"
            case .unreadable: "cannot be written: Permission denied"
            default: "exists and is not a log file; leaving it alone"
            }
            PathFailure(output: output).check(command: "demo", path: path, problem: problem)
            #expect(output.stdout.isEmpty)
        }

        @Test("--cache-dir DIR (demo and get share it): an unusable directory or a file in its place is refused",
              arguments: InputKind.allCases.filter { $0 != .missing && $0 != .directory })
        func cacheDirectory(kind: InputKind) async throws {
            let directory = try TemporaryDirectory()
            let path = try kind.make(in: directory, name: "store")
            if kind == .unreadable {
                // A directory nobody may enter rather than a file.
                try FileManager.default.removeItem(atPath: path)
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
                chmod(path, 0)
            }
            defer { chmod(path, 0o700) }
            let problem = kind == .unreadable ? "cannot be written: Permission denied" : "is a file, not a directory"
            let demo = try await Binary.run(
                ["demo", "--no-ui", "--duration", "1", "--cache-dir", path, "--log", directory.path("demo.log")], for: kind)
            PathFailure(output: demo).check(command: "demo", path: path, problem: problem)
            #expect(demo.stdout.isEmpty)
            let get = try await Binary.run(["get", "http://127.0.0.1:9/", "--cache-dir", path], for: kind)
            PathFailure(output: get).check(command: "get", path: path, problem: problem)
        }

        @Test("the accepted kinds run: an empty --record, a missing --log and an existing --cache-dir; then an empty --log and a missing --cache-dir")
        func acceptedOutputs() async throws {
            let directory = try TemporaryDirectory()
            let record = try InputKind.empty.make(in: directory, name: "session.jsonl")
            let log = directory.path("demo.log")
            let store = try InputKind.directory.make(in: directory, name: "store")
            let first = try await Binary.run(
                ["demo", "--no-ui", "--duration", "1", "--rate", "5", "--record", record, "--log", log, "--cache-dir", store])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(CLIFixtures.mode(record) == 0o600)
            #expect(try String(contentsOfFile: record, encoding: .utf8).hasPrefix("{\"format\":\"cachescope-session\""))
            #expect(CLIFixtures.mode(log) == 0o600, "a new log file is private too")

            let emptyLog = try InputKind.empty.make(in: directory, name: "demo.log")
            let newStore = directory.path("new/store")
            let second = try await Binary.run(
                ["demo", "--no-ui", "--duration", "1", "--rate", "5", "--log", emptyLog, "--cache-dir", newStore])
            #expect(second.status == 0, "\(second.stderr)")
            var isDirectory: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: newStore, isDirectory: &isDirectory) && isDirectory.boolValue)
            #expect(try CLIFixtures.temporaryFiles(in: directory).isEmpty)
        }
    }
}
