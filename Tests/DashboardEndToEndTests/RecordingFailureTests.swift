import DemoOrigin
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEndTests {
    /// A session log whose writes start failing while the command runs (the disk fills up).
    @Suite("A recording that cannot be written to the end")
    struct RecordingFailureTests {
        /// The shell's file-size limit (`ulimit -f`, in 512-byte blocks) stands in for a full disk: past it, each write fails
        /// with EFBIG ("File too large") once SIGXFSZ is ignored, as ENOSPC would.
        @Test("proxy --record on a filling disk keeps the events written before the failure, under --record's name, and says so")
        func writeFailureKeepsWhatWasWritten() async throws {
            let origin = try await DemoOrigin.start()
            defer { Task { try? await origin.stop() } }
            let directory = try TemporaryDirectory()
            let log = directory.path("capture.jsonl")
            let proxy = try await HeadlessProxy.start(
                origin: origin, directory: directory, extra: ["--record", log], shellSetUp: "trap '' XFSZ; ulimit -f 128")
            // About 1 KiB of log each, 64 KiB allowed (for every file: the captured output's
            // 300 lines of access log stay well below it).
            for _ in 0..<300 { _ = try await Curl.head(proxy.url + "/max-age/60") }
            kill(proxy.child.pid, SIGTERM)
            let (status, text) = await proxy.child.wait(timeout: .seconds(30))
            #expect(status == 143, "\(text)")
            #expect(text.contains("cachescope: proxy: the session log could not be written (File too large): recording stopped"), "said as it happened: \(text)")
            #expect(text.contains("\(log): writing the session log failed (File too large); it holds the events before the failure"), "\(text)")
            let summary = try await Binary.run(["replay", log, "--summary"])
            #expect(summary.status == 0, "\(summary.stderr)")
            #expect(summary.stdout.contains("Requests: "), "\(summary.stdout)")
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path(""))
            #expect(!names.contains { $0.hasSuffix(".tmp") }, "\(names)")
        }

        /// The rename at the end replaced it without a word (a hunt of 27 November).
        @Test("a file put at --record's path during the run is left alone; the recording is kept beside it and the command says where, status 1")
        func fileAppearedAtRecordPath() async throws {
            let binary = try #require(Binary.path, "\(Binary.SetupError.binaryNotFound)")
            let directory = try TemporaryDirectory()
            let log = directory.path("x.jsonl")
            let child = try Spawn.start([binary, "demo", "--no-ui", "--duration", "2", "--record", log], outputPath: directory.path("out.txt"))
            // Once the run has started recording (its temporary file exists).
            for _ in 0..<300 where !((try? FileManager.default.contentsOfDirectory(atPath: directory.path(""))) ?? []).contains(where: { $0.hasPrefix(".x.jsonl.") }) {
                try await Task.sleep(for: .milliseconds(20))
            }
            try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: log))
            let (status, text) = await child.wait(timeout: .seconds(30))
            #expect(status == 1, "\(text)")
            #expect(try String(contentsOfFile: log, encoding: .utf8) == "my notes\n", "left alone")
            let kept = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path("")).first { $0.hasPrefix(".x.jsonl.") && $0.hasSuffix(".tmp") })
            #expect(text.contains("cannot be replaced (something that is not a session log was put there during the run, or the rename failed), and is left alone; the recording is kept at \(directory.path(kept))"), "\(text)")
            let summary = try await Binary.run(["replay", directory.path(kept), "--summary"])
            #expect(summary.status == 0 && summary.stdout.contains("Requests: "), "the kept recording replays: \(summary.stderr)")
        }

        /// A run killed with SIGKILL leaves its recording in a hidden `.tmp` file, which no later run mentioned.
        @Test("a recording an earlier killed run left beside --record's path is named when the next run starts")
        func leftoverRecordingNamed() async throws {
            let directory = try TemporaryDirectory()
            let leftover = directory.path(".x.jsonl.0123456789abcdef.tmp")
            try Data(#"{"format":"cachescope-session","version":1,"startedAt":"2026-11-27T10:00:00.000Z"}"#.utf8).write(to: URL(fileURLWithPath: leftover))
            let output = try await Binary.run(["demo", "--no-ui", "--duration", "0.5", "--record", directory.path("x.jsonl")])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stderr.contains("an earlier run killed before it ended left its recording at \(leftover); rename it to replay it"), "\(output.stderr)")
            #expect(FileManager.default.fileExists(atPath: leftover), "left where it was")
        }
    }
}
