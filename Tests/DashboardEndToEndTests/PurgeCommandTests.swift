import DemoOrigin
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEndTests {
    /// `cachescope purge` against a real published proxy, in front of the demo origin (which
    /// tags `/items/{id}` with `Surrogate-Key: items item-{id}`), driven by `curl`.
    @Suite("cachescope purge")
    struct PurgeCommandTests {
        /// `cachescope proxy --no-ui --publish` and the URL and socket its banner names.
        private func publishingProxy(
            origin: DemoOrigin, directory: TemporaryDirectory, extra: [String] = []
        ) async throws -> (Spawn.Child, url: String, socket: String) {
            let proxy = try await HeadlessProxy.start(
                origin: origin, directory: directory, extra: ["--publish"] + extra, naming: ["; publishing on "])
            return (proxy.child, proxy.url, try #require(proxy.named["; publishing on "]))
        }

        @Test("--tag removes the tagged entry from the published proxy: one line naming it, status 0, and the next request misses")
        func purgeByTag() async throws {
            let origin = try await DemoOrigin.start()
            defer { Task { try? await origin.stop() } }
            let directory = try TemporaryDirectory()
            let (proxy, url, socket) = try await publishingProxy(origin: origin, directory: directory)
            defer { kill(proxy.pid, SIGTERM) }

            _ = try await Curl.head(url + "/items/5")
            _ = try await Curl.head(url + "/items/6")
            #expect(try await Curl.head(url + "/items/5").contains("Cache-Status: cachescope;hit"))

            let purged = try await Binary.run(["purge", "--tag", "item-5", socket])
            #expect(purged.status == 0, "\(purged.stderr)")
            let line = try #require(purged.stdout.split(separator: "\n").first.map(String.init), "no output: \(purged.stderr)")
            #expect(line.hasPrefix("\(socket) (cachescope-proxy, pid \(proxy.pid)): purged 1 entry tagged item-5"), "\(line)")
            #expect(purged.stdout.split(separator: "\n").count == 1)

            #expect(try await Curl.head(url + "/items/5").contains("fwd=uri-miss"), "the purged entry is gone")
            #expect(try await Curl.head(url + "/items/6").contains("Cache-Status: cachescope;hit"), "the other item stays")
            #expect(origin.requestCount(path: "/items/5") == 2)

            let again = try await Binary.run(["purge", "--tag", "nothing-has-this", socket])
            #expect(again.status == 0)
            #expect(again.stdout.contains("purged 0 entries tagged nothing-has-this"), "\(again.stdout)")
        }

        @Test("--tag against a published demo: one line with what it removed, and nothing stored before it is left", .needsTmux)
        func purgeDemoByTag() async throws {
            let directory = try TemporaryDirectory()
            let app = try TmuxSession.demo(["--publish", "--rate", "40"], directory: directory)
            defer { app.close() }
            let published = await app.waitFor(.seconds(60)) { Screen.statusLine($0).contains("publishing on ") }
            let status = Screen.statusLine(published.screen)
            let start = try #require(published.ok ? status.range(of: "publishing on ") : nil, "no socket announced:\n\(published.screen)")
            let socket = String(status[start.upperBound...]).trimmingCharacters(in: .whitespaces)
            // Time for the workload to store a few /items/{id} (8 % of its requests), each tagged `items`.
            try await Task.sleep(for: .seconds(6))

            let purged = try await Binary.run(["purge", "--tag", "items", socket])
            #expect(purged.status == 0, "\(purged.stderr)")
            let line = purged.stdout.trimmingCharacters(in: .newlines)
            #expect(line.hasPrefix("\(socket) (cachescope-demo, pid "), "\(line)")
            let count = line.range(of: "): purged ").flatMap { Int(line[$0.upperBound...].prefix { $0.isNumber }) }
            #expect((count ?? 0) > 0 && line.contains(" tagged items"), "the demo had stored tagged items: \(line)")

            // Anything tagged that is older than 5 s was stored before the purge (which ran < 5 s ago): none is left.
            let left = try await Binary.run(["purge", "--filter", "tag:items & age>5s", socket])
            #expect(left.status == 0, "\(left.stderr)")
            #expect(left.stdout.contains("purged 0 entries matching tag:items & age>5s"), "\(left.stdout)")
            app.type("q")
            #expect(await app.waitForExit() == 0)
        }

        @Test("a missing socket, no purge named, two named, or a bad tag: one line saying what is wrong, status 64")
        func usageErrors() async throws {
            let directory = try TemporaryDirectory()
            let missing = directory.path("missing.sock")
            let cases: [([String], String)] = [
                (["purge", "--tag", "x", missing], "cachescope: purge: "),
                (["purge", missing], "say what to purge: --tag NAME, --key URL, --prefix URL, --filter EXPR or --all"),
                (["purge", "--tag", "x", "--all", missing], "give one of --tag, --all, not several"),
                (["purge", "--tag", "a b", missing], "--tag \"a b\": a tag is visible ASCII without spaces"),
                (["purge", "--filter", "outcome:great", missing], "--filter 'outcome:great': column 9"),
            ]
            for (arguments, message) in cases {
                let output = try await Binary.run(arguments)
                #expect(output.status == 64, "\(arguments): \(output.stderr)")
                #expect(output.stderr.contains(message), "\(arguments): \(output.stderr)")
                #expect(output.stdout.isEmpty)
            }
            let notThere = try await Binary.run(["purge", "--tag", "x", missing])
            #expect(notThere.stderr.contains(missing), "\(notThere.stderr)")
        }

        @Test("a --read-only proxy refuses the purge with a reply saying so; purge exits 1")
        func readOnlyRefuses() async throws {
            let origin = try await DemoOrigin.start()
            defer { Task { try? await origin.stop() } }
            let directory = try TemporaryDirectory()
            let (proxy, _, socket) = try await publishingProxy(
                origin: origin, directory: directory, extra: ["--read-only", "--cache-dir", directory.path("store")])
            defer { kill(proxy.pid, SIGTERM) }
            let refused = try await Binary.run(["purge", "--all", socket])
            #expect(refused.status == 1)
            #expect(
                refused.stderr.contains("purgeAll refused: cachescope proxy runs with --read-only, which disables every command that changes the cache"),
                "\(refused.stderr)")
        }

        /// The app closes the connection on a line over 64 KiB, and purge said the process had
        /// exited; the same socket named twice was purged twice.
        @Test("a purge too long for one command line says so and is not sent; a socket named twice is a usage error")
        func commandTooLong() async throws {
            let origin = try await DemoOrigin.start()
            defer { Task { try? await origin.stop() } }
            let directory = try TemporaryDirectory()
            let (proxy, _, socket) = try await publishingProxy(origin: origin, directory: directory)
            defer { kill(proxy.pid, SIGTERM) }
            let long = try await Binary.run(["purge", "--key", "http://a/" + String(repeating: "x", count: 70_000), socket])
            #expect(long.status == 1)
            #expect(long.stderr.contains("reads commands of at most 65536 bytes: shorten its key or filter"), "\(long.stderr)")
            #expect(!long.stderr.contains("closed the connection"), "\(long.stderr)")
            let twice = try await Binary.run(["purge", "--all", socket, socket])
            #expect(twice.status == 64)
            #expect(twice.stderr.contains("is named twice"), "\(twice.stderr)")
            #expect(try await Binary.run(["purge", "--all", socket]).status == 0, "the proxy still answers")
        }
    }
}
