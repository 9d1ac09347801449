import CacheAttach
import CacheScopeApp
import Foundation
import SessionLog
import Testing
import TerminalUI
#if canImport(Glibc)
import Glibc
import HTTPCaching
import CacheEvents
#endif

/// What the commands do, called directly: themes, replay sources, export, failures.
@Suite("Command logic: themes, replay by content, export, failure lines")
struct CommandLogicTests {
    @Test("--theme: an unknown name and a path that is no theme file are refused; a theme file with a bad colour starts the default theme and says why")
    func themes() throws {
        let scratch = try Scratch()
        #expect(throws: ThemeError.self) { try ThemeChoice("solarised") }
        let empty = try scratch.file("empty.json", "")
        #expect(throws: PathError.empty(path: empty, expected: .theme)) { try ThemeChoice(empty) }
        let missing = scratch.path("none.json")
        #expect(throws: PathError.notFound(path: missing, expected: .theme)) { try ThemeChoice(missing) }
        let directory = try scratch.directory("themes/")
        #expect(throws: PathError.self) { try ThemeChoice(directory + "/") }

        #expect(try ThemeChoice(nil).value == nil)
        #expect(try ThemeChoice("light").value == "light")
        let broken = try scratch.file("broken.json", "{\n  \"roles\": {\n    \"hit\": { \"fg\": \"gren\" }\n  }\n}\n")
        let choice = try ThemeChoice(broken)
        let (theme, problem) = choice.resolve()
        #expect(theme.name == ThemeLoader.defaultName || ProcessInfo.processInfo.environment["NO_COLOR"] != nil)
        if ProcessInfo.processInfo.environment["NO_COLOR"] == nil {
            #expect(problem?.hasPrefix("started with the default theme: \(broken): line 3") == true, "\(problem ?? "nil")")
        }
    }

    @Test("replay tells a HAR from a session log by content: a HAR named .json simulates, a log named .har plays as recorded")
    func replayByContent() async throws {
        let scratch = try Scratch()
        let har = try scratch.file("capture.json", Scratch.harCapture)
        let log = try scratch.file("session.har", Scratch.sessionLog)
        let simulated = try await ReplaySource.load(har, mode: .private)
        #expect(simulated.note == "simulated 2 captured requests through the cache (private mode)")
        #expect(SessionSummary(folding: simulated.events).report.outcomes.hit == 1)
        let shared = try await ReplaySource.load(har, mode: .shared)
        #expect(SessionSummary(folding: shared.events).report.outcomes.hit == 0, "a shared cache does not store private responses")
        let recorded = try await ReplaySource.load(log, mode: .private)
        #expect(recorded.note == nil)
        let report = SessionSummary(folding: recorded.events).report
        #expect(report.requests == 2 && report.outcomes.hit == 1 && report.outcomes.miss == 1)
        await #expect(throws: PathError.isDirectory(path: scratch.url.path, expected: .sessionLogOrHAR)) {
            try await ReplaySource.load(scratch.url.path, mode: .private)
        }
    }

    /// A log that begins or ends in the middle of requests lost them from the HAR without a word.
    @Test("export says how many requests it leaves out: one whose start the log lacks, one the log ends before")
    func exportLeftOut() throws {
        let scratch = try Scratch()
        let lines = Scratch.sessionLog.split(separator: "\n").map(String.init)
        // Without request 1's start (the log begins mid-request), and without request 2's end.
        let cut = [lines[0]] + lines[2...5] + lines[6...8]
        let log = try scratch.file("cut.jsonl", cut.joined(separator: "\n") + "\n")
        let result = try LogExport.run(
            from: InputPath(log, kind: .sessionLog, option: "FILE"), to: OutputPath(scratch.path("out.har"), kind: .har, option: "--har"))
        #expect(result.entries == 0)
        #expect(result.warnings.isEmpty)
        #expect(result.leftOut == [
            "\(log): 1 request left out: the log has its end but not its start (it begins in the middle of it), so its method and URL are unknown",
            "\(log): 1 request left out: the log ends before it finished",
        ])
    }

    @Test("export writes a 0600 HAR with one entry per request; a HAR input is refused; a failed write leaves nothing behind")
    func export() throws {
        let scratch = try Scratch()
        let log = try scratch.file("session.jsonl", Scratch.sessionLog)
        let out = scratch.path("out.har")
        let result = try LogExport.run(
            from: InputPath(log, kind: .sessionLog, option: "FILE"), to: OutputPath(out, kind: .har, option: "--har"))
        #expect(result.entries == 2 && result.warnings.isEmpty)
        #expect(Scratch.mode(out) == 0o600)
        #expect(try HARReader.load(out).log.entries.map(\.cacheStatus) == ["miss", "hit"])

        #expect(throws: PathError.self) {
            try LogExport.run(from: InputPath(out, kind: .sessionLog, option: "FILE"), to: OutputPath(scratch.path("again.har"), kind: .har, option: "--har"))
        }

        // The target turns into a directory between the check and the write: the rename fails.
        let target = scratch.path("late.har")
        let output = try OutputPath(target, kind: .har, option: "--har")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: target + "/inside", withIntermediateDirectories: false)
        #expect(throws: HARError.self) { try LogExport.run(from: InputPath(log, kind: .sessionLog, option: "FILE"), to: output) }
        #expect(try scratch.names() == ["late.har", "out.har", "session.jsonl"], "no temporary file left")
    }

    @Test("a failure is one line: usage errors name the command and exit 64, other failures exit 1")
    func failures() {
        let directory = CommandFailure(command: "replay", PathError.isDirectory(path: "/tmp/x", expected: .sessionLogOrHAR))
        #expect(directory.description == "cachescope: replay: /tmp/x is a directory, not a session log or HAR file")
        #expect(directory.status == 64)
        #expect(CommandFailure(command: "replay", SessionLogError.empty(file: "a.jsonl")).status == 64)
        #expect(CommandFailure(command: "replay", HARError.notHAR(file: "a.har", line: 1, detail: "x")).status == 64)
        #expect(CommandFailure(command: "demo", ThemeError.unknownTheme(name: "x", builtIn: ["default"])).status == 64)
        #expect(CommandFailure(command: "demo", TerminalError.notATerminal(stdinIsTerminal: false, stdoutIsTerminal: false)).status == 64)
        // A socket path too long for a socket is the command line's to fix; one nobody listens on is not.
        #expect(CommandFailure(command: "attach", AttachError.pathTooLong(path: String(repeating: "x", count: 120), limit: 107)).status == 64)
        #expect(CommandFailure(command: "attach", AttachError.connectionRefused(path: "/tmp/a.sock")).status == 1)
        #expect(CommandFailure(command: "demo", TerminalError.cannotDraw(term: "dumb")).status == 1)
        let written = CommandFailure(command: "export", HARError.writeFailed(file: "a.har", reason: "No space left on device"))
        #expect(written.status == 1)
        #expect(written.description == "cachescope: a.har: cannot write the HAR (No space left on device)")
        #expect(CommandFailure.usage(command: "get", "two\nlines").description == "cachescope: get: two lines")
        // A filter's or a server's escape sequences were written to the terminal as they came.
        #expect(CommandFailure.usage(command: "replay", "--filter 'outcome:gr\u{1B}[31meat' url~\"\\d\"").description
            == #"cachescope: replay: --filter 'outcome:gr\e[31meat' url~"\d""#)
    }
}
