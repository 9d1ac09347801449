import Foundation
import Testing

extension EndToEndTests {
    /// `replay`, `export`, `attach` and `demo --record` as a user runs them: the real binary,
    /// real files, whole outputs compared.
    @Suite("replay, export, attach and demo --record from the command line", .serialized, .timeLimit(.minutes(2)))
    struct CommandLineTests {
        /// The JSON `replay --summary --json` prints (the fields these tests read; not `duration`,
        /// which a HAR simulation measures on a real clock).
        struct Summary: Decodable, Equatable {
            struct Outcomes: Decodable, Equatable {
                let hit: Int
                let miss: Int
                let stale: Int
                let revalidated: Int
            }

            let format: String
            let events: Int
            let requests: Int
            let outcomes: Outcomes
        }

        @Test("replay FILE --summary prints the session's figures")
        func replayFile() async throws {
            let directory = try TemporaryDirectory()
            let log = try CLIFixtures.sessionLogFile(in: directory)
            let output = try await Binary.run(["replay", log, "--summary"])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stderr.isEmpty)
            let lines = output.stdout.components(separatedBy: "\n")
            #expect(lines.first == "Session: 9 events over 1.0 s", "\(output.stdout)")
            #expect(lines.contains("Requests: 2 (0 coalesced)"), "\(output.stdout)")
            #expect(lines.contains { $0.hasPrefix("  hit ") && $0.contains(" 1 ") && $0.hasSuffix("50.0%") }, "\(output.stdout)")
            #expect(lines.contains { $0.hasPrefix("  miss ") && $0.contains(" 1 ") && $0.hasSuffix("50.0%") }, "\(output.stdout)")
        }

        @Test("replay --summary --filter counts whole matching requests only; a bad filter is one line, status 64")
        func replayFiltered() async throws {
            let directory = try TemporaryDirectory()
            let log = try CLIFixtures.sessionLogFile(in: directory)
            let output = try await Binary.run(["replay", log, "--summary", "--json", "--filter", "outcome:hit"])
            #expect(output.status == 0, "\(output.stderr)")
            let summary = try output.json(Summary.self)
            #expect(summary.requests == 1 && summary.outcomes.hit == 1 && summary.outcomes.miss == 0)

            let bad = try await Binary.run(["replay", log, "--summary", "--filter", "outcome:great"])
            #expect(bad.status == 64)
            #expect(bad.stderr == "cachescope: replay: --filter 'outcome:great': column 9: expected an outcome "
                + "(hit, stale, revalidated, modified, miss, bypass, error), found \"great\"\n")
            #expect(bad.stdout.isEmpty)
            for command in [["export", log, "--har", directory.path("out.har")], ["demo", "--no-ui"]] {
                let refused = try await Binary.run(command + ["--filter", "status>"])
                #expect(refused.status == 64, "\(command)")
                #expect(refused.stderr.hasSuffix(": --filter 'status>': column 8: expected a value after status>, found the end of the filter\n"))
            }
        }

        @Test("replay --speed 3 is refused naming the speeds it takes; 0.5 and 8x are taken")
        func replaySpeeds() async throws {
            let directory = try TemporaryDirectory()
            let log = try CLIFixtures.sessionLogFile(in: directory)
            let refused = try await Binary.run(["replay", log, "--summary", "--speed", "3"])
            #expect(refused.status == 64)
            #expect(refused.stderr.contains("--speed must be a power of two from 1/16 to 64 (1/16, 1/8, 1/4, 1/2, 1, 2, 4, 8, 16, 32, 64"), "\(refused.stderr)")
            #expect(refused.stderr.hasSuffix("not \"3\"\n"))
            for speed in ["0.5", "8x"] {
                #expect(try await Binary.run(["replay", log, "--summary", "--speed", speed]).status == 0, "\(speed)")
            }
        }

        @Test("replay DIR is one line naming the directory, status 64")
        func replayDirectory() async throws {
            let directory = try TemporaryDirectory()
            let output = try await Binary.run(["replay", directory.url.path])
            #expect(output.status == 64)
            #expect(output.stderr == "cachescope: replay: \(directory.url.path) is a directory, not a session log or HAR file\n")
            #expect(output.stdout.isEmpty)
        }

        @Test("replay --summary --json: one JSON object with the counts")
        func replayJSON() async throws {
            let directory = try TemporaryDirectory()
            let log = try CLIFixtures.sessionLogFile(in: directory)
            let output = try await Binary.run(["replay", log, "--summary", "--json"])
            #expect(output.status == 0, "\(output.stderr)")
            let summary = try output.json(Summary.self)
            #expect(summary.format == "cachescope-summary")
            #expect(summary.events == 9 && summary.requests == 2)
            #expect(summary.outcomes.hit == 1 && summary.outcomes.miss == 1 && summary.outcomes.stale == 0)
        }

        @Test("a HAR is recognised by its content: without a .har name it replays the same as with one")
        func harByContent() async throws {
            let directory = try TemporaryDirectory()
            let named = directory.path("capture.har")
            let unnamed = directory.path("capture")
            try CLIFixtures.harCapture.write(toFile: named, atomically: false, encoding: .utf8)
            try CLIFixtures.harCapture.write(toFile: unnamed, atomically: false, encoding: .utf8)
            let withName = try await Binary.run(["replay", named, "--summary", "--json"])
            let byContent = try await Binary.run(["replay", unnamed, "--summary", "--json"])
            #expect(byContent.status == 0, "\(byContent.stderr)")
            let summary = try byContent.json(Summary.self)
            #expect(summary == (try withName.json(Summary.self)))
            #expect(summary.requests == 4)
            #expect(summary.outcomes.hit == 2 && summary.outcomes.miss == 2, "a private cache: both second requests hit")
        }

        @Test("replay --shared simulates a shared cache: the private response is never stored")
        func sharedHAR() async throws {
            let directory = try TemporaryDirectory()
            let capture = directory.path("capture.json")
            try CLIFixtures.harCapture.write(toFile: capture, atomically: false, encoding: .utf8)
            let output = try await Binary.run(["replay", capture, "--summary", "--json", "--shared"])
            #expect(output.status == 0, "\(output.stderr)")
            let summary = try output.json(Summary.self)
            #expect(summary.requests == 4)
            #expect(summary.outcomes.hit == 1 && summary.outcomes.miss == 3, "only the public response hits")
        }

        @Test("replay --what-if prints the recorded and the what-if run side by side; a bad key is one line, status 64")
        func whatIf() async throws {
            let directory = try TemporaryDirectory()
            let capture = directory.path("capture.har")
            try CLIFixtures.harCapture.write(toFile: capture, atomically: false, encoding: .utf8)
            let output = try await Binary.run(["replay", capture, "--what-if", "mode=shared"])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stderr.isEmpty)
            #expect(output.stdout == """
                What-if for \(capture): mode=shared

                                        recorded      what-if         change
                  requests                     4            4
                  hit ratio                50.0%        25.0%   -25.0 points
                  byte hit ratio           50.0%        25.0%   -25.0 points
                  origin requests              2            3             +1
                  bytes from origin          8 B         12 B           +4 B
                    hit                        2            1             -1
                    stale                      0            0
                    revalidated                0            0
                    modified                   0            0
                    miss                       2            3             +1
                    bypass                     0            0
                    error                      0            0
                  evictions                    0            0

                Requests whose outcome changed: 1 of 4
                URLs whose outcome changed most:
                   changed        of  URL
                         1         2  https://shop.example/profile  (hit → miss 1)

                """)

            let bad = try await Binary.run(["replay", capture, "--what-if", "colour=red"])
            #expect(bad.status == 64)
            #expect(bad.stderr == "cachescope: replay: --what-if: unknown key \"colour\"; keys: memory=SIZE, disk=SIZE, "
                + "mode=private|shared, policy=NAME, ignore-no-cache=yes|no, min-ttl=DURATION\n")
            #expect(bad.stdout.isEmpty)
        }

        @Test("export --har writes a HAR (mode 0600) with one entry per request and its cache status")
        func export() async throws {
            struct HAR: Decodable {
                struct Log: Decodable { let entries: [Entry] }
                struct Entry: Decodable {
                    struct Request: Decodable { let method: String; let url: String }
                    let request: Request
                    let _cacheStatus: String?
                }
                let log: Log
            }
            let directory = try TemporaryDirectory()
            let log = try CLIFixtures.sessionLogFile(in: directory)
            let out = directory.path("out.har")
            let output = try await Binary.run(["export", log, "--har", out])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout == "wrote 2 entries to \(out)\n")
            let har = try JSONDecoder().decode(HAR.self, from: Data(contentsOf: URL(fileURLWithPath: out)))
            #expect(har.log.entries.map(\.request.url) == ["https://api.example/a", "https://api.example/a"])
            #expect(har.log.entries.map(\._cacheStatus) == ["miss", "hit"])
            #expect(CLIFixtures.mode(out) == 0o600)
            #expect(try CLIFixtures.temporaryFiles(in: directory).isEmpty)

            // The export replays as a HAR.
            let replayed = try await Binary.run(["replay", out, "--summary", "--json"])
            #expect(try replayed.json(Summary.self).requests == 2)
        }

        @Test("attach --list lists the sockets found (or says there are none) and exits 0")
        func attachList() async throws {
            let output = try await Binary.run(["attach", "--list"])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stderr.isEmpty)
            #expect(output.stdout == "no attach sockets found; start one with `cachescope demo --publish`\n"
                || output.stdout.contains(".sock"), "\(output.stdout)")
        }

        @Test("attach to a socket that is not there, or is a plain file: one line, status 64")
        func attachWithoutSocket() async throws {
            let directory = try TemporaryDirectory()
            let missing = directory.path("none.sock")
            let none = try await Binary.run(["attach", missing])
            #expect(none.status == 64)
            #expect(none.stderr == "cachescope: attach: \(missing) does not exist (expected an attach socket)\n")
            let file = directory.path("file.sock")
            try "x".write(toFile: file, atomically: false, encoding: .utf8)
            let plain = try await Binary.run(["attach", file])
            #expect(plain.status == 64)
            #expect(plain.stderr == "cachescope: attach: \(file) exists but is not a socket\n")
            // A symbolic link, alone or among several (where it was retried for ever, the
            // reason shown nowhere): never followed, said at once.
            let link = directory.path("link.sock")
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: missing)
            for arguments in [["attach", link], ["attach", missing, link]] {
                let linked = try await Binary.run(arguments)
                #expect(linked.status == 64, "\(linked.stderr)")
                #expect(linked.stderr.contains("\(link) is a symbolic link; CacheScope does not follow links for its sockets"), "\(linked.stderr)")
            }
        }

        @Test("demo --no-ui --record F: the file is a 0600 session log whose replay summary is the one the demo printed")
        func recordThenReplay() async throws {
            let directory = try TemporaryDirectory()
            let log = directory.path("session.jsonl")
            let demo = try await Binary.run([
                "demo", "--no-ui", "--duration", "2", "--rate", "20", "--record", log,
                "--cache-dir", directory.path("store"), "--log", directory.path("demo.log"),
            ])
            #expect(demo.status == 0, "\(demo.stderr)")
            var lines = demo.stdout.components(separatedBy: "\n")
            #expect(lines.first?.hasPrefix("Demo origin: http://127.0.0.1:") == true)
            #expect(lines.last == "")
            let recorded = lines.dropLast().last ?? ""
            #expect(recorded.hasPrefix("Recorded ") && recorded.hasSuffix(" events to \(log)"), "\(recorded)")
            lines = Array(lines.dropFirst().dropLast(2))
            let printed = lines.joined(separator: "\n") + "\n"
            #expect(CLIFixtures.mode(log) == 0o600)
            #expect(try CLIFixtures.temporaryFiles(in: directory).isEmpty)

            let replay = try await Binary.run(["replay", log, "--summary"])
            #expect(replay.status == 0, "\(replay.stderr)")
            #expect(replay.stdout == printed)
            let requests = try #require(lines.first { $0.hasPrefix("Requests: ") })
            #expect(Int(requests.dropFirst(10).prefix { $0.isNumber }).map { $0 >= 10 } == true, "2 s at 20 requests/s: \(requests)")
        }

        @Test("demo --no-ui --record F --filter: only whole matching requests are recorded, and export keeps them")
        func recordFiltered() async throws {
            let directory = try TemporaryDirectory()
            let log = directory.path("misses.jsonl")
            let demo = try await Binary.run([
                "demo", "--no-ui", "--duration", "2", "--rate", "20", "--record", log, "--filter", "outcome:miss & !bg",
                "--cache-dir", directory.path("store"), "--log", directory.path("demo.log"),
            ])
            #expect(demo.status == 0, "\(demo.stderr)")
            let replay = try await Binary.run(["replay", log, "--summary", "--json"])
            #expect(replay.status == 0, "\(replay.stderr)")
            let summary = try replay.json(Summary.self)
            #expect(summary.requests > 0 && summary.requests == summary.outcomes.miss, "\(replay.stdout)")
            #expect(summary.outcomes.hit == 0 && summary.outcomes.stale == 0 && summary.outcomes.revalidated == 0)

            let har = directory.path("out.har")
            let export = try await Binary.run(["export", log, "--har", har, "--filter", "url:max-age"])
            #expect(export.status == 0, "\(export.stderr)")
            let entries = try #require(Int(export.stdout.dropFirst("wrote ".count).prefix { $0.isNumber }), "\(export.stdout)")
            #expect(entries <= summary.requests)
            let text = try String(contentsOfFile: har, encoding: .utf8)
            #expect(!text.contains("/no-store"), "only max-age URLs were exported")
        }
    }
}
