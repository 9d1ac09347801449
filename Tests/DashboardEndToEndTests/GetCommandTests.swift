import DemoOrigin
import Foundation
import Testing

extension EndToEndTests {
    /// `cachescope get` and `cachescope origin`, run as a user runs them: the real binary, a real
    /// loopback origin, a real disk store in a temporary directory.
    @Suite("cachescope get and origin")
    struct GetCommandTests {
        /// The JSON object `get --json` prints.
        struct Report: Decodable, Equatable {
            let outcome: String
            let reason: String
            let status: Int
            let age: Double?
            let ttl: Double?
            let fromNetwork: Bool
            let bytes: Int
        }

        @Test("the store persists across invocations: a miss from the network, then a hit that sends nothing")
        func missThenHit() async throws {
            try await withOriginAndStore { setup in
                let first = try await setup.get("/max-age/60", "--json")
                #expect(first.status == 0, "\(first.stderr)")
                let miss = try first.json(Report.self)
                #expect(miss.outcome == "miss" && miss.reason == "not in cache" && miss.status == 200 && miss.fromNetwork)
                #expect(miss.bytes > 0)
                #expect(miss.ttl.map { $0 > 55 && $0 <= 60 } == true)

                let hit = try await setup.get("/max-age/60", "--json").json(Report.self)
                #expect(hit.outcome == "hit" && hit.reason == "max-age=60" && !hit.fromNetwork && hit.bytes == miss.bytes)
                #expect(setup.origin.requestCount(path: "/max-age/60") == 1)
            }
        }

        /// A hit written to a closed pipe ended the process with SIGPIPE (141, nothing said),
        /// while the same write after a network fetch failed with a message.
        @Test("a body written into a closed pipe (| head -c1) fails with status 1 and says so, from the store as from the network")
        func closedPipe() async throws {
            try await withOriginAndStore { setup in
                let binary = try #require(Binary.path, "\(Binary.SetupError.binaryNotFound)")
                let url = setup.origin.baseURL + "/large/2048"  // 2 MiB: more than a pipe holds
                #expect(try await setup.get("/large/2048", "--json").json(Report.self).outcome == "miss")
                // From the store, then from the network.
                for policy in ["protocol", "reload"] {
                    let errors = setup.store.path("\(policy).err")
                    let child = try Spawn.start(
                        ["/bin/bash", "-c", #"set -o pipefail; "$0" "$@" | head -c1 >/dev/null"#, binary, "get", url, "--cache-dir", setup.cache, "--policy", policy],
                        errorPath: errors)
                    let (status, _) = await child.wait(timeout: .seconds(60))
                    let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
                    #expect(status == 1, "\(policy): \(stderr)")
                    #expect(stderr.contains("cannot write to standard output: broken pipe"), "\(policy): \(stderr)")
                }
                #expect(setup.origin.requestCount(path: "/large/2048") == 2, "one fetch, one reload: the hit sent nothing")
            }
        }

        @Test("--shared-tier: a bad URL is a usage error saying what is wrong; an unreachable server fails at start")
        func sharedTierErrors() async throws {
            let commands = [["get", "http://127.0.0.1:1/"], ["demo", "--no-ui"], ["proxy", "--origin", "http://127.0.0.1:1", "--no-ui"]]
            for command in commands {
                let bad = try await Binary.run(command + ["--shared-tier", "http://cache@db/cache"])
                #expect(bad.status == 64, "\(command)")
                #expect(
                    bad.stderr == "cachescope: \(command[0]): --shared-tier: invalid shared tier URL \"http://cache@db/cache\": "
                        + "the scheme must be postgres:// or postgresql://, not http://\n", "\(bad.stderr)")
            }
            try await withOriginAndStore { setup in
                let unreachable = try await setup.get("/max-age/60", "--shared-tier", "postgres://nobody@127.0.0.1:1/cache?sslmode=disable&connect_timeout=1")
                #expect(unreachable.status == 1)
                #expect(
                    unreachable.stderr == "cachescope: cannot reach the shared tier at postgres://nobody@127.0.0.1:1/cache: connection refused; "
                        + "check that PostgreSQL runs there and accepts this user\n", "\(unreachable.stderr)")
                #expect(setup.origin.requestCount(path: "/max-age/60") == 0, "nothing was sent without the tier it was asked for")
            }
        }

        @Test("without --json the body goes to stdout and the outcome to stderr; a 304 serves the stored body")
        func bodyAndOutcome() async throws {
            try await withOriginAndStore { setup in
                let origin = setup.origin
                let first = try await setup.get("/no-cache")
                #expect(first.status == 0)
                #expect(first.stdout == "DemoOrigin /no-cache\nCache-Control: no-cache\n")
                #expect(first.stderr.hasPrefix("MISS not in cache · 200 · "))
                #expect(first.stderr.hasSuffix("· \(first.stdout.utf8.count) bytes from network\n"), "\(first.stderr)")

                let second = try await setup.get("/no-cache")
                #expect(second.stdout == first.stdout)
                #expect(second.stderr.hasPrefix("REVALIDATED 304 (no-cache) · 200 · "), "\(second.stderr)")
                #expect(second.stderr.hasSuffix("· \(first.stdout.utf8.count) bytes from cache, origin asked\n"), "\(second.stderr)")
                let sent = origin.lastRequestHeaders(path: "/no-cache") ?? []
                #expect(sent.contains { $0.name.lowercased() == "if-none-match" })
                #expect(origin.requestCount(path: "/no-cache") == 2)
            }
        }

        @Test("--header (or curl's -H) reaches the origin and selects the Vary variant; --policy reload goes to the origin anyway")
        func headersAndPolicy() async throws {
            try await withOriginAndStore { setup in
                let german = try await setup.get("/vary/lang", "--header", "Accept-Language: de")
                let english = try await setup.get("/vary/lang", "-H", "Accept-Language: en")
                #expect(german.status == 0 && english.status == 0)
                #expect(german.stdout != english.stdout, "each language has its own body")
                let germanAgain = try await setup.get("/vary/lang", "--header", "Accept-Language: de", "--json")
                #expect(try germanAgain.json(Report.self).outcome == "hit")
                #expect(setup.origin.requestCount(path: "/vary/lang") == 2)

                let reloaded = try await setup.get("/vary/lang", "--header", "Accept-Language: de", "--policy", "reload", "--json")
                #expect(try reloaded.json(Report.self).fromNetwork)
                #expect(setup.origin.requestCount(path: "/vary/lang") == 3)
            }
        }

        /// The entries went without a word: `get` shows the log's warnings only (a hunt of 27 November).
        @Test("an unreadable index is said on stderr when get opens the store, and the request still succeeds")
        func unreadableIndexSaid() async throws {
            try await withOriginAndStore { setup in
                #expect(try await setup.get("/max-age/60").status == 0)
                try Data(repeating: 0x42, count: 8192).write(to: URL(fileURLWithPath: setup.cache + "/default/index.sqlite"))
                let output = try await setup.get("/max-age/60")
                #expect(output.status == 0)
                #expect(output.stderr.contains("index.sqlite was unreadable"), "\(output.stderr)")
            }
        }

        @Test("cache-only with nothing stored fails without touching the network")
        func cacheOnlyMiss() async throws {
            try await withOriginAndStore { setup in
                let output = try await setup.get("/max-age/60", "--policy", "cache-only")
                #expect(output.status == 1)
                #expect(output.stderr.contains("is not in the cache and the policy forbids the network"), "\(output.stderr)")
                #expect(setup.origin.totalRequestCount() == 0)
            }
        }

        @Test("an origin that cannot be reached is an error that names the URL and the system's reason")
        func unreachable() async throws {
            let origin = try await DemoOrigin.start()
            let url = origin.baseURL + "/max-age/60"
            try await origin.stop()
            let store = try TemporaryDirectory()
            let output = try await Binary.run(["get", url, "--cache-dir", store.path("cache")])
            #expect(output.status == 1)
            #expect(output.stderr == "cachescope: cannot connect to \(url): connection refused\n", "\(output.stderr)")
            #expect(output.stdout.isEmpty)
        }

        @Test("a Host field naming the URL's own host is taken (the request goes out: here, to a port nobody listens on)")
        func hostFieldForTheSameHost() async throws {
            let output = try await Binary.run(["get", "http://127.0.0.1:9/a", "-H", "Host: 127.0.0.1:9"])
            #expect(output.status == 1, "\(output.stderr)")
            #expect(output.stderr.contains("cannot connect to http://127.0.0.1:9/a"), "\(output.stderr)")
        }

        @Test("bad input is a usage error that says what is wrong", arguments: [
            (["get", "example.com/a"], #""example.com/a" is not an absolute http:// or https:// URL"#),
            (["get", "http://127.0.0.1:9/", "--policy", "sometimes"], #"unknown policy "sometimes"; use one of: protocol, reload"#),
            (["get", "http://127.0.0.1:9/", "--header", "NoColon"], #"header "NoColon" must look like 'Name: value'"#),
            (["get", "http://127.0.0.1:9/", "--header", "Bad Name: x"], #""Bad Name" is not a valid header name"#),
            // Stored under the URL, a response for another virtual host would be served for this one.
            (["get", "http://127.0.0.1:9/a", "-H", "Host: other.example"], "-H 'Host: other.example' names another host than the URL (127.0.0.1:9)"),
            (["get", "http://127.0.0.1:0/a"], #""http://127.0.0.1:0/a": port 0 is out of range (1–65535)"#),
            (["get", "http://127.0.0.1:70000/a"], "port 70000 is out of range (1–65535)"),
            (["get", "http://user:secret@127.0.0.1:9/a"], "has a user name or password in it, which would not be sent"),
            (["origin", "--listen", "127.0.0.1:99999"], "--listen"),
            (["origin", "--listen", "0.0.0.0:0"], "--listen 0.0.0.0 is not a loopback address: anyone who can reach it could use the demo origin; add --allow-remote"),
            // Found only once the demo had started, and reported with status 1 and no command.
            (["demo", "--no-ui", "--publish-socket", "/cachescope-no-such-dir/a.sock"],
             "cachescope: demo: --publish-socket: directory /cachescope-no-such-dir does not exist; create it with `mkdir -m 700 /cachescope-no-such-dir`"),
            (["proxy", "--origin", "http://127.0.0.1:9", "--no-ui", "--publish-socket", "/tmp"],
             "cachescope: proxy: --publish-socket: refusing to use /: its permissions are"),
        ])
        func usageErrors(arguments: [String], message: String) async throws {
            let output = try await Binary.run(arguments)
            #expect(output.status == 64)
            #expect(output.stderr.contains(message), "\(output.stderr)")
        }

        /// Without a terminal, `demo --help` printed the help and then that the dashboard needs
        /// a terminal; `purge --help`, that it said nothing to purge; and an unknown option was
        /// reported as the missing terminal.
        @Test("--help shows the help alone, and an unknown option is named, whatever else the command line lacks", arguments: [
            ["demo", "--help"], ["attach", "--help"], ["purge", "--help"], ["replay", "--help"], ["proxy", "--help"], ["help", "purge"],
        ])
        func helpWithoutTerminal(arguments: [String]) async throws {
            let output = try await Binary.run(arguments)
            #expect(output.status == 0)
            #expect(output.stdout.contains("USAGE: cachescope"), "\(output.stdout)")
            #expect(output.stderr.isEmpty, "\(output.stderr)")
        }

        @Test("an unknown option is reported as such, with the usage, before a missing terminal or another option's problem", arguments: [
            ["--bogus"], ["demo", "--bogus"], ["proxy", "--origin", "http://127.0.0.1:9", "--bogus"], ["purge", "--bogus", "x"],
            ["replay", "/nonexistent.jsonl", "--bogus"],
        ])
        func unknownOptionWithoutTerminal(arguments: [String]) async throws {
            let output = try await Binary.run(arguments)
            #expect(output.status == 64)
            #expect(output.stderr.contains("Unknown option '--bogus'"), "\(output.stderr)")
            #expect(!output.stderr.contains("terminal") && !output.stderr.contains("cachescope:"), "only ArgumentParser's message: \(output.stderr)")
        }

        @Test("cachescope origin, run as a user (no CAP_NET_ADMIN), prints where it listens, serves the endpoints and stops cleanly on SIGTERM")
        func originCommand() async throws {
            let binary = try #require(Binary.path, "\(Binary.SetupError.binaryNotFound)")
            let directory = try TemporaryDirectory()
            let banner = directory.path("origin.out")
            let child = try Spawn.start(Binary.asAUser + [binary, "origin", "--listen", "127.0.0.1:0"], outputPath: banner)
            let baseURL = try await Banner.wait(in: banner) { Banner.word(after: "demo origin listening on ", in: $0) }
            let url = try #require(baseURL, "no banner from `cachescope origin`")
            let text = try String(contentsOfFile: banner, encoding: .utf8)
            #expect(text.contains("/max-age/{N}") && text.contains("/no-cache") && text.contains("stop with Ctrl-C"))

            let store = try TemporaryDirectory()
            let fetched = try await Binary.run(["get", url + "/max-age/30", "--cache-dir", store.path("cache"), "--json"])
            #expect(try fetched.json(Report.self).status == 200)

            kill(child.pid, SIGTERM)
            let (status, _) = await child.wait(timeout: .seconds(10))
            #expect(status == 0)
        }
    }
}
