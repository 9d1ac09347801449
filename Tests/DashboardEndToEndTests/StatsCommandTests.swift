import Foundation
import Testing

extension EndToEndTests {
    /// `--stats-every SECONDS --json` as a script runs it: the real binary, NDJSON on stdout.
    @Suite("--stats-every --json from the command line", .serialized, .timeLimit(.minutes(2)))
    struct StatsCommandTests {
        /// The fields of a stats line these tests read.
        struct Line: Decodable {
            struct Outcomes: Decodable {
                let hit: Int
                let miss: Int
            }

            let format: String
            let version: Int
            let time: Double
            let final: Bool
            let requests: Int
            let intervalRequests: Int
            let outcomes: Outcomes
        }

        /// Every stdout line decoded; a line that does not parse fails the test.
        static func lines(_ output: Binary.Output) throws -> [Line] {
            let text = output.stdout
            #expect(text.hasSuffix("\n"), "NDJSON ends with a newline: \(text)")
            return try text.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        }

        @Test("replay HAR --summary --json --stats-every: the intervals follow the capture's timestamps")
        func replayIntervals() async throws {
            let directory = try TemporaryDirectory()
            let har = directory.path("capture.har")
            try CLIFixtures.harCapture.write(toFile: har, atomically: false, encoding: .utf8)
            let output = try await Binary.run(["replay", har, "--summary", "--json", "--stats-every", "5"])
            #expect(output.status == 0, "\(output.stderr)")
            let lines = try Self.lines(output)
            // Requests at 0, 1, 10 and 11 s of capture time, each taking 12.5 ms.
            #expect(lines.map(\.time).prefix(2) == [5, 10], "\(output.stdout)")
            #expect(lines.map(\.requests) == [2, 2, 4], "\(output.stdout)")
            #expect(lines.map(\.intervalRequests) == [2, 0, 2])
            #expect(lines.map(\.final) == [false, false, true])
            #expect(lines.allSatisfy { $0.format == "cachescope-stats" && $0.version == 1 })
        }

        @Test("demo --no-ui --stats-every --json: only JSON lines on stdout while the traffic runs, a final one at the end")
        func demoLines() async throws {
            let output = try await Binary.run(["demo", "--no-ui", "--duration", "3", "--stats-every", "0.5", "--json"])
            #expect(output.status == 0, "\(output.stderr)")
            let lines = try Self.lines(output)
            #expect(lines.count >= 4, "\(output.stdout)")
            #expect(lines.last?.final == true && lines.dropLast().allSatisfy { !$0.final })
            #expect(zip(lines, lines.dropFirst()).allSatisfy { $0.time < $1.time && $0.requests <= $1.requests }, "\(output.stdout)")
            #expect((lines.last?.requests ?? 0) > 0)
            #expect(lines.last.map { $0.requests == lines.reduce(0) { $0 + $1.intervalRequests } } == true)
        }

        @Test("a recording replayed prints the live run's lines: the same events counted, the store's figures from the first line")
        func replayMatchesLive() async throws {
            let directory = try TemporaryDirectory()
            let log = directory.path("live.jsonl")
            let live = try await Binary.run(["demo", "--no-ui", "--duration", "2", "--stats-every", "0.5", "--json", "--record", log])
            #expect(live.status == 0, "\(live.stderr)")
            let replay = try await Binary.run(["replay", log, "--summary", "--json", "--stats-every", "0.5"])
            #expect(replay.status == 0, "\(replay.stderr)")
            func objects(_ output: Binary.Output) throws -> [[String: Any]] {
                try output.stdout.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            }
            let (liveLines, replayLines) = (try objects(live), try objects(replay))
            let intervals = { (lines: [[String: Any]]) in lines.filter { ($0["final"] as? Bool) == false } }
            let (liveIntervals, replayIntervals) = (intervals(liveLines), intervals(replayLines))
            #expect(!liveIntervals.isEmpty)
            #expect(liveIntervals.map { $0["time"] as? Double } == replayIntervals.prefix(liveIntervals.count).map { $0["time"] as? Double })
            #expect(liveIntervals.map { $0["events"] as? Int } == replayIntervals.prefix(liveIntervals.count).map { $0["events"] as? Int },
                    "live \(live.stdout)\nreplay \(replay.stdout)")
            #expect(liveIntervals.first?["store"] is [String: Any], "the store's figures from the first line: \(live.stdout)")
        }

        /// The stats lines' failed writes were ignored (a run piped into `head -1` went on
        /// for ever; one to a full disk ended 0), and a failed write of the metrics note left
        /// the client running as the process ended (a trap in a debug build).
        @Test("standard output that cannot be written ends a headless demo with status 1 and the reason, the client shut down first", arguments: [
            ["--stats-every", "0.2", "--json"], ["--metrics", "127.0.0.1:0"],
        ])
        func unwritableOutput(extra: [String]) async throws {
            let binary = try #require(Binary.path, "\(Binary.SetupError.binaryNotFound)")
            let directory = try TemporaryDirectory()
            let errors = directory.path("stderr")
            // Through sh, so the test reads nothing from /dev/full (Spawn reads back its output file).
            let child = try Spawn.start(
                ["/bin/sh", "-c", #"exec "$0" "$@" >/dev/full"#, binary, "demo", "--no-ui", "--duration", "60", "--cache-dir", directory.path("store")] + extra,
                errorPath: errors)
            let (status, _) = await child.wait(timeout: .seconds(30))
            let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            #expect(status == 1, "\(stderr)")
            #expect(stderr.contains("cachescope: cannot write to standard output: no space left on device"), "\(stderr)")
            #expect(!stderr.contains("Fatal error") && !stderr.contains("crashed"), "\(stderr)")
        }

        @Test("Bad values are one line naming the fix, status 64, nothing on stdout")
        func badValues() async throws {
            let directory = try TemporaryDirectory()
            let log = try CLIFixtures.sessionLogFile(in: directory)
            let cases: [([String], String)] = [
                (["demo", "--no-ui", "--stats-every", "0", "--json"],
                 "cachescope: demo: --stats-every must be a positive number of seconds (e.g. 1 or 0.5), not 0.0\n"),
                (["demo", "--no-ui", "--stats-every=-2", "--json"],
                 "cachescope: demo: --stats-every must be a positive number of seconds (e.g. 1 or 0.5), not -2.0\n"),
                (["demo", "--no-ui", "--json"],
                 "cachescope: demo: --json goes with --stats-every SECONDS (one JSON object per interval), e.g. --stats-every 5 --json\n"),
                (["demo", "--no-ui", "--stats-every", "5"], "cachescope: demo: --stats-every writes JSON lines: add --json\n"),
                (["demo", "--stats-every", "5", "--json"], "cachescope: demo: --stats-every goes with --no-ui\n"),
                (["replay", log, "--summary", "--stats-every", "1"], "cachescope: replay: --stats-every writes JSON lines: add --json\n"),
                (["replay", log, "--stats-every", "1", "--json"], "cachescope: replay: --json goes with --summary\n"),
                (["attach", "--no-ui", "--json"],
                 "cachescope: attach: --json goes with --stats-every SECONDS (one JSON object per interval), e.g. --stats-every 5 --json\n"),
                (["attach", "--no-ui", "--stats-every", "0", "--json"],
                 "cachescope: attach: --stats-every must be a positive number of seconds (e.g. 1 or 0.5), not 0.0\n"),
            ]
            for (arguments, message) in cases {
                let output = try await Binary.run(arguments)
                #expect(output.status == 64, "\(arguments): \(output.stderr)")
                #expect(output.stderr == message, "\(arguments)")
                #expect(output.stdout.isEmpty, "\(arguments)")
            }
        }
    }
}

extension EndToEndTests {
    /// `attach --no-ui` on a demo that publishes (the demo's dashboard runs in tmux).
    @Suite("attach --no-ui", .needsTmux, .timeLimit(.minutes(2)))
    struct HeadlessAttachTests {
        @Test("attach --no-ui --stats-every --json writes lines until the publisher stops, then a final one, status 0")
        func attachLines() async throws {
            let directory = try TemporaryDirectory()
            let (app, socket) = try await TmuxSession.publishingDemo(directory: directory)
            defer { app.close() }
            let binary = try #require(Binary.path)
            let (stdout, stderr) = (directory.path("attach.out"), directory.path("attach.err"))
            let watching = try Spawn.start(
                [binary, "attach", socket, "--no-ui", "--stats-every", "0.5", "--json"], outputPath: stdout, errorPath: stderr)
            // Two periodic lines written (at most 30 s on a busy machine), then the publisher stops.
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline,
                ((try? String(contentsOfFile: stdout, encoding: .utf8)) ?? "").split(separator: "\n").count < 2 {
                try await Task.sleep(for: .milliseconds(100))
            }
            app.type("q")
            #expect(await app.waitForExit() == 0)
            let (status, text) = await watching.wait(timeout: .seconds(60))
            let output = Binary.Output(
                status: status, stdout: text, stderr: (try? String(contentsOfFile: stderr, encoding: .utf8)) ?? "")
            #expect(output.status == 0, "\(output.stderr)")
            let lines = try StatsCommandTests.lines(output)
            #expect(lines.count >= 3, "\(output.stdout)")
            #expect(lines.last?.final == true)
            #expect((lines.last?.requests ?? 0) > 0, "\(output.stdout)")
        }
    }
}
