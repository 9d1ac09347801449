import DemoOrigin
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEndTests {
    /// `cachescope proxy` as a user runs it: in front of the demo origin, driven by `curl`.
    @Suite("cachescope proxy")
    struct ProxyCommandTests {
        @Test("--no-ui, run as a user (no CAP_NET_ADMIN): one common-log line per request on stdout, the summary and status 143 on SIGTERM")
        func headless() async throws {
            let origin = try await DemoOrigin.start()
            defer { Task { try? await origin.stop() } }
            let directory = try TemporaryDirectory()
            let proxy = try await HeadlessProxy.start(origin: origin, directory: directory, launcher: Binary.asAUser)
            let (child, url) = (proxy.child, proxy.url)
            let miss = try await Curl.head(url + "/max-age/60")
            #expect(miss.contains("Cache-Status: cachescope;fwd=uri-miss;fwd-status=200;stored"), "\(miss)")
            let hit = try await Curl.head(url + "/max-age/60")
            #expect(hit.contains("Cache-Status: cachescope;hit;ttl="), "\(hit)")
            #expect(origin.requestCount(path: "/max-age/60") == 1)

            kill(child.pid, SIGTERM)
            let (status, text) = await child.wait(timeout: .seconds(20))
            #expect(status == 143)
            let lines = text.split(separator: "\n").filter { $0.contains("\"GET /max-age/60 HTTP/1.1\" 200 ") }
            #expect(lines.count == 2, "\(text)")
            #expect(lines.first?.hasPrefix("127.0.0.1 - - [") == true && lines.first?.contains(" miss \"") == true, "\(text)")
            #expect(lines.last?.contains(" hit \"max-age=60\"") == true, "\(text)")
            #expect(text.contains("Proxy: \(url) → \(origin.baseURL)") && text.contains("Hit ratio: 50.0% of 2 requests"), "\(text)")
        }

        /// The store's opening failure was published before anything subscribed: `--no-ui`
        /// said nothing, and the proxy ran memory-only without a word (a hunt of 27 November).
        @Test("--no-ui with a --cache-dir it cannot use: the disk degraded to memory only is said on standard error at start")
        func unusableCacheDirectory() async throws {
            let origin = try await DemoOrigin.start()
            defer { Task { try? await origin.stop() } }
            let directory = try TemporaryDirectory()
            let cache = directory.path("cache")
            try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
            // The default namespace's folder cannot be made: a file has its name.
            #expect(FileManager.default.createFile(atPath: cache + "/default", contents: Data()))
            let proxy = try await HeadlessProxy.start(origin: origin, directory: directory, extra: ["--cache-dir", cache])
            let miss = try await Curl.head(proxy.url + "/max-age/60")
            #expect(miss.contains("stored"), "served and kept in memory: \(miss)")
            kill(proxy.child.pid, SIGTERM)
            let (status, text) = await proxy.child.wait(timeout: .seconds(20))
            #expect(status == 143)
            #expect(text.contains("cachescope: proxy: disk store degraded to memory only:") && text.contains("Not a directory"), "\(text)")
        }

        /// With SIGPIPE ignored, the access log's failed writes were dropped and the proxy
        /// served on for ever with nowhere to write.
        @Test("--no-ui | head -1: once its access log cannot be written the proxy stops, status 1, saying so")
        func closedPipe() async throws {
            let origin = try await DemoOrigin.start()
            defer { Task { try? await origin.stop() } }
            let binary = try #require(Binary.path, "\(Binary.SetupError.binaryNotFound)")
            let directory = try TemporaryDirectory()
            let errors = directory.path("stderr")
            let banner = directory.path("banner")
            let child = try Spawn.start(
                ["/bin/bash", "-c", #"set -o pipefail; banner="$0"; "$@" | head -1 > "$banner""#, banner, binary, "proxy", "--no-ui",
                 "--origin", origin.baseURL, "--listen", "127.0.0.1:0", "--cache-dir", directory.path("store")],
                errorPath: errors)
            let url = try #require(await Banner.wait(in: banner) { Banner.word(after: "cachescope proxy on ", in: $0) })
            // Each request's line is written within 50 ms; the first after `head` left fails.
            for index in 0..<20 {
                // Not `Curl`, which fails the test when a request does: the last one may find the proxy gone.
                _ = await (try Spawn.start(["curl", "-s", "-o", "/dev/null", url + "/max-age/\(index + 1)"])).wait(timeout: .seconds(10))
                if kill(child.pid, 0) != 0 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let (status, _) = await child.wait(timeout: .seconds(30))
            let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            #expect(status == 1, "\(stderr)")
            #expect(stderr.contains("cannot write to standard output: broken pipe"), "\(stderr)")
        }

        @Test("in the dashboard: curl's requests show up live, q exits 0", .needsTmux)
        func dashboard() async throws {
            let binary = try #require(Binary.path, "\(Binary.SetupError.binaryNotFound)")
            let origin = try await DemoOrigin.start()
            defer { Task { try? await origin.stop() } }
            let directory = try TemporaryDirectory()
            let tmux = try TmuxSession(
                [binary, "proxy", "--origin", origin.baseURL, "--listen", "127.0.0.1:0", "--log", directory.path("proxy.log")],
                width: 120, height: 40)
            defer { tmux.close() }
            let up = await tmux.waitFor(.seconds(60)) { Screen.statusLine($0).contains("proxy on http://") }
            try #require(up.ok, "no dashboard announcing the proxy:\n\(up.screen)")
            let line = Screen.statusLine(up.screen)
            let start = try #require(line.range(of: "proxy on "))
            let url = String(line[start.upperBound...].prefix { $0 != " " })

            _ = try await Curl.head(url + "/max-age/60")
            _ = try await Curl.head(url + "/max-age/60")
            let shown = await tmux.waitFor(.seconds(30)) { $0.contains("HIT max-age=60") && $0.contains("MISS") }
            #expect(shown.ok, "the dashboard does not show curl's miss and hit:\n\(shown.screen)")
            #expect(!shown.screen.contains("\"GET /max-age/60"), "an access-log line was drawn on the dashboard:\n\(shown.screen)")
            tmux.type("q")
            #expect(await tmux.waitForExit() == 0)
            let logged = try String(contentsOfFile: directory.path("proxy.log"), encoding: .utf8)
            #expect(logged.contains("\"GET /max-age/60 HTTP/1.1\" 200"), "the access log did not go to --log:\n\(logged)")
        }

        @Test(
            "usage errors name the option and exit 64",
            arguments: [
                (["--origin", "http://127.0.0.1:1", "--listen", "0.0.0.0:8081", "--no-ui"], "--allow-remote"),
                (["--origin", "ftp://example.com", "--no-ui"], "--origin: cannot proxy to 'ftp://example.com': the scheme must be http or https"),
                (["--origin", "http://127.0.0.1:1/base", "--no-ui"], "without a path"),
                (["--origin", "http://127.0.0.1:1", "--memory-capacity", "lots", "--no-ui"], "--memory-capacity must be a positive size"),
                (["--origin", "http://127.0.0.1:1", "--read-only", "--no-ui"], "--read-only serves what a store already holds"),
                // Was "address already in use", as if another process held the port.
                (["--origin", "http://127.0.0.1:1", "--listen", "127.0.0.1:39111", "--metrics", "127.0.0.1:39111", "--no-ui"],
                 "--metrics 127.0.0.1:39111 is the address --listen serves the proxy on"),
                (["--origin", "http://127.0.0.1:1", "--listen", "127.0.0.1:39111", "--metrics", "localhost:39111", "--no-ui"],
                 "--metrics localhost:39111 asks for the port --listen 127.0.0.1:39111 serves the proxy on"),
                // Every request was forwarded back to the proxy and ended in a 504 after 30 s.
                (["--origin", "http://localhost:39112", "--listen", "127.0.0.1:39112", "--no-ui"],
                 "--origin http://localhost:39112 is this proxy's own address (it listens on 127.0.0.1:39112)"),
            ])
        func usageErrors(arguments: [String], message: String) async throws {
            let output = try await Binary.run(["proxy"] + arguments)
            #expect(output.status == 64)
            #expect(output.stderr.hasPrefix("cachescope: proxy: "), "\(output.stderr)")
            #expect(output.stderr.contains(message), "\(output.stderr)")
        }
    }
}
