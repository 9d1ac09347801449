import DemoOrigin
import Foundation
import Testing

extension EndToEndTests {
    /// Inputs that used to stop the process with a Swift runtime trap, or were misread (found
    /// by trying every option the way a user or a hostile file would): each now gets an error
    /// that names what is wrong, or is read past with a warning.
    @Suite("inputs that used to trap or be misread: a clear error instead", .serialized, .timeLimit(.minutes(2)))
    struct TrapInputTests {
        /// AsyncHTTPClient traps on a port beyond 16 bits; a URL typed by the user is refused
        /// as a usage error (a redirect's `Location` goes through the transport's check).
        @Test("get with a port beyond 65535 says the port is out of range")
        func portOutOfRange() async throws {
            let output = try await Binary.run(["get", "http://127.0.0.1:99999/"])
            #expect(output.status == 64, "\(output.stderr)")
            #expect(output.stderr.contains("port 99999 is out of range (1–65535)"), "\(output.stderr)")
            #expect(!output.stderr.contains("Fatal error"))
        }

        /// The attach socket is made after the client: its failure used to release a running
        /// AsyncHTTPClient (a trap) and lose the message.
        @Test("demo --publish-socket in a folder that does not exist names the folder")
        func publishSocketFailure() async throws {
            let directory = try TemporaryDirectory()
            let socket = directory.path("missing/app.sock")
            let output = try await Binary.run(["demo", "--no-ui", "--duration", "1", "--publish-socket", socket])
            #expect(output.status == 64, "checked before anything starts, as every path: \(output.stderr)")
            #expect(output.stderr.contains(directory.path("missing")) && output.stderr.contains("does not exist"), "\(output.stderr)")
            #expect(!output.stderr.contains("Fatal error"))
        }

        /// ArgumentParser took `-1` for an option name and said "Missing value for '--rate'".
        @Test("a number out of range, a negative one too (not taken for an option name), is refused with the range the option accepts", arguments: [
            (["demo", "--no-ui", "--rate", "-1"], "--rate must be between 0 and 10000 requests per second, not -1.0"),
            (["demo", "--no-ui", "--stats-every", "-1", "--json"], "--stats-every must be a positive number of seconds (e.g. 1 or 0.5), not -1.0"),
            (["demo", "--no-ui", "--rewind-events", "-1"], "--rewind-events must be 0 or more, not -1"),
            // It reserved memory for a quarter of them at start: 26 GB, and a trap.
            (["demo", "--no-ui", "--rewind-events", "1000000000"], "--rewind-events keeps at most 10000000 events (about 1.3 GB of memory), not 1000000000"),
        ])
        func negativeNumbers(arguments: [String], message: String) async throws {
            let output = try await Binary.run(arguments)
            #expect(output.status == 64, "\(output.stderr)")
            #expect(output.stderr.contains(message) && !output.stderr.contains("Missing value"), "\(output.stderr)")
            // One line, as every failure (--rewind-events was ArgumentParser's Error/Usage/See lines).
            #expect(output.stderr.hasPrefix("cachescope: demo: ") && output.stderr.filter { $0 == "\n" }.count == 1, "\(output.stderr)")
        }

        /// The store carried on in memory (one log line, status 0): what `get` fetched was lost.
        @Test("get with a --cache-dir that cannot be made is an error naming it")
        func cacheDirectoryNotMade() async throws {
            let path = "/proc/cachescope-\(UUID().uuidString)"
            let output = try await Binary.run(["get", "http://127.0.0.1:9/", "--cache-dir", path])
            #expect(output.status != 0, "\(output.stderr)")
            #expect(output.stderr.contains(path) && !output.stderr.contains("memory-only"), "\(output.stderr)")
            #expect(!output.stderr.contains("connection refused"), "the request is not sent: \(output.stderr)")
        }

        /// A capture's entry the simulator cannot send was left out without a word (31 entries,
        /// 30 requests).
        @Test("replay of a HAR names each entry it leaves out, and plays the others")
        func harEntryLeftOut() async throws {
            let directory = try TemporaryDirectory()
            func entry(_ url: String, at second: Int) -> String {
                #"{"startedDateTime":"2026-01-01T00:00:0\#(second).000Z","time":1,"request":{"method":"GET","url":"\#(url)","httpVersion":"HTTP/1.1","headers":[],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":0},"response":{"status":200,"statusText":"OK","httpVersion":"HTTP/1.1","headers":[{"name":"Cache-Control","value":"max-age=60"}],"cookies":[],"content":{"size":0,"mimeType":"text/plain"},"redirectURL":"","headersSize":-1,"bodySize":0},"cache":{},"timings":{"send":0,"wait":1,"receive":0}}"#
            }
            let har = #"{"log":{"version":"1.2","creator":{"name":"tests","version":"1"},"entries":["#
                + [entry("https://shop.example/a", at: 0), entry("not a url", at: 1), entry("https://shop.example/a", at: 2)].joined(separator: ",")
                + "]}}"
            let path = directory.path("capture.har")
            try har.write(toFile: path, atomically: false, encoding: .utf8)
            let output = try await Binary.run(["replay", path, "--summary"])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stderr.contains(#"capture.har: log.entries[1] left out: its URL "not a url" is not an absolute http:// or https:// URL"#), "\(output.stderr)")
            #expect(output.stdout.contains("Requests: 2 ("), "the other two are played: \(output.stdout)")
        }

        @Test("demo --duration beyond a year is a usage error", arguments: ["1e300", "31536001"])
        func durationTooLong(value: String) async throws {
            let output = try await Binary.run(["demo", "--no-ui", "--duration", value])
            #expect(output.status == 64, "\(output.stderr)")
            #expect(output.stderr.contains("--duration must be a positive number of seconds up to 31536000 (a year)"), "\(output.stderr)")
        }

        /// An event time of 1e308 trapped in the timeline's whole seconds; a gap of 1e9 s read
        /// every 10 ms ran for ever.
        @Test("replay skips an event whose time no session has, and a long quiet gap ends")
        func eventTimes() async throws {
            let directory = try TemporaryDirectory()
            let header = #"{"format":"cachescope-session","version":1,"startedAt":"2026-01-05T10:00:00.000Z","redacted":true,"producer":"tests"}"#
            let huge = directory.path("huge.jsonl")
            try (header + "\n" + #"{"seq":1,"t":1e308,"kind":"error","message":"far"}"# + "\n" + #"{"seq":2,"t":2,"kind":"error","message":"near"}"# + "\n")
                .write(toFile: huge, atomically: false, encoding: .utf8)
            let skipped = try await Binary.run(["replay", huge, "--summary", "--json", "--stats-every", "1"])
            #expect(skipped.status == 0, "\(skipped.stderr)")
            #expect(skipped.stderr.contains("huge.jsonl:2: ") && skipped.stderr.contains("is not a session's time"), "\(skipped.stderr)")
            #expect(skipped.stdout.split(separator: "\n").count == 1, "one interval line, the final one: \(skipped.stdout)")

            let gap = directory.path("gap.jsonl")
            try (header + "\n" + #"{"seq":1,"t":0,"kind":"error","message":"a"}"# + "\n" + #"{"seq":2,"t":1e9,"kind":"error","message":"b"}"# + "\n")
                .write(toFile: gap, atomically: false, encoding: .utf8)
            let quiet = try await Binary.run(["replay", gap, "--summary", "--json", "--stats-every", "0.01"], timeout: .seconds(60))
            #expect(quiet.status == 0, "\(quiet.stderr)")
            #expect(quiet.stdout.split(separator: "\n").count == 10_002, "10,000 lines, the gap's last end and the final line")
        }

        /// HTTPTypes traps on a status code above 999: a log or capture saying 1000 stopped
        /// `replay --what-if` (which answers with the recorded status) and a HAR replay.
        @Test("replay --what-if of a log with a status that is no HTTP status skips its lines, and says so")
        func whatIfStatusOutOfRange() async throws {
            let directory = try TemporaryDirectory()
            let header = #"{"format":"cachescope-session","version":1,"startedAt":"2026-01-05T10:00:00.000Z","redacted":true,"producer":"tests"}"#
            let lines = [
                header,
                #"{"seq":1,"t":0,"req":1,"kind":"requestStarted","method":"GET","url":"https://shop.example/a","cacheKey":"GET https://shop.example/a","policy":"useProtocolCachePolicy","headers":[]}"#,
                #"{"seq":2,"t":0,"req":1,"kind":"served","source":"network","status":1000,"bytes":0,"outcome":"miss","reason":"not in cache","headers":[]}"#,
                #"{"seq":3,"t":0,"req":1,"kind":"requestFinished","status":1000,"latency":0.01,"bytesFromNetwork":0,"bytesFromCache":0,"outcome":"miss","reason":"not in cache","coalesced":false}"#,
            ]
            let log = directory.path("status.jsonl")
            try (lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: false, encoding: .utf8)
            let whatIf = try await Binary.run(["replay", log, "--what-if", "memory=1M"])
            #expect(whatIf.status == 0, "\(whatIf.stderr)")
            #expect(!whatIf.stderr.contains("Fatal error") && !whatIf.stderr.contains("Precondition"), "\(whatIf.stderr)")
            #expect(whatIf.stdout.contains("2 lines of the log were skipped (unreadable"), "\(whatIf.stdout)")
            let summary = try await Binary.run(["replay", log, "--summary"])
            #expect(
                summary.stderr.contains(#"status.jsonl:3: not an event (field "status" is 1000, not an HTTP status (100 to 999, or 0 for no response)); line skipped"#),
                "\(summary.stderr)")
        }

        /// Foundation's decoder said "The given data was not valid JSON." for a number that is
        /// not a whole `Int`, with no field named; a status above 999 trapped in HTTPTypes.
        @Test("replay of a HAR with a number that is no whole number, too large, or no HTTP status names the field", arguments: [
            (#""status":200"#, #""status":1000"#, #"field "log.entries[0].response.status" is 1000, not an HTTP status (100 to 999, or 0 for no response)"#),
            (#""status":200"#, #""status":1e20"#, #"field "log.entries[0].response.status" is 1e+20, not a whole number from"#),
            (#""status":200"#, #""status":200.5"#, #"field "log.entries[0].response.status" is 200.5, not a whole number from"#),
            (#""time":1"#, #""time":1e999"#, #"field "log.entries[0].time" is a number too large to read"#),
        ])
        func harNumbers(original: String, replacement: String, message: String) async throws {
            let directory = try TemporaryDirectory()
            let har = #"{"log":{"version":"1.2","creator":{"name":"tests","version":"1"},"entries":[{"startedDateTime":"2026-01-01T00:00:00.000Z","time":1,"request":{"method":"GET","url":"https://shop.example/a","httpVersion":"HTTP/1.1","headers":[],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":0},"response":{"status":200,"statusText":"OK","httpVersion":"HTTP/1.1","headers":[],"cookies":[],"content":{"size":0,"mimeType":"text/plain"},"redirectURL":"","headersSize":-1,"bodySize":0},"cache":{},"timings":{"send":0,"wait":1,"receive":0}}]}}"#
            let path = directory.path("capture.har")
            try har.replacingOccurrences(of: original, with: replacement).write(toFile: path, atomically: false, encoding: .utf8)
            for arguments in [["replay", path, "--summary"], ["replay", path, "--what-if", "memory=1M"]] {
                let output = try await Binary.run(arguments)
                #expect(output.status == 64, "\(arguments): \(output.stderr)")
                #expect(output.stderr.contains("capture.har:1: " + message), "\(arguments): \(output.stderr)")
            }
        }

        /// With standard output closed, the next file opened took its number and the body was
        /// written into it ("cachescope: Invalid argument"); a full disk said only "No space
        /// left on device".
        @Test("get with standard output closed succeeds; with a full one it says what it could not write")
        func standardOutput() async throws {
            try await withOriginAndStore { setup in
                let binary = try #require(Binary.path)
                let errors = setup.store.path("stderr")
                let command = #""$0" get "$1" --cache-dir "$2""#
                let closed = try Spawn.start(["/bin/sh", "-c", command + " >&-", binary, setup.origin.baseURL + "/large/256", setup.cache], errorPath: errors)
                let closedEnd = await closed.wait(timeout: .seconds(30))
                let closedText = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
                #expect(closedEnd.status == 0, "\(closedText)")
                #expect(closedText.contains("MISS") && !closedText.contains("nvalid argument"), "\(closedText)")
                let full = try Spawn.start(["/bin/sh", "-c", command + " > /dev/full", binary, setup.origin.baseURL + "/large/256", setup.cache], errorPath: errors)
                let fullEnd = await full.wait(timeout: .seconds(30))
                let fullText = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
                #expect(fullEnd.status == 1)
                #expect(fullText.contains("cachescope: cannot write to standard output: no space left on device"), "\(fullText)")
                // The store is whole: the body stored by the first run is served.
                #expect(try await setup.get("/large/256").stderr.hasPrefix("HIT"))
            }
        }
    }
}
