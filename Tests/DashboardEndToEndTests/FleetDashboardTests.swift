import Foundation
import Testing

extension EndToEndTests {
    /// `cachescope attach S1 S2 S3`: three real demo processes in one dashboard.
    @Suite("One dashboard over a fleet, in tmux", .needsTmux)
    struct FleetDashboardTests {
        /// `cachescope demo --publish-socket PATH --rate 5` in tmux, up and publishing.
        private func demo(publishingOn socket: String, directory: TemporaryDirectory, name: String) async throws -> TmuxSession {
            let binary = try #require(Binary.path, "\(Binary.SetupError.binaryNotFound)")
            // A store and a log of its own: three processes never share a cache directory.
            let app = try TmuxSession(
                [binary, "demo", "--publish-socket", socket, "--rate", "5", "--cache-dir", directory.path("\(name)-store"),
                 "--log", directory.path("\(name).log")],
                width: 160, height: 40)
            let published = await app.waitFor(.seconds(60)) { Screen.statusLine($0).contains("publishing on \(socket)") }
            try #require(published.ok, "demo \(name) does not publish on \(socket):\n\(published.screen)")
            return app
        }

        /// The number after `label` on the line that has it (`purged 0.3` → 0.3).
        private func figure(after label: String, in screen: String) -> Double? {
            guard let range = screen.range(of: label + " ") else { return nil }
            return Double(screen[range.upperBound...].prefix { $0.isNumber || $0 == "." })
        }

        @Test("three demos: an instance column, D purges all three (each says so itself), one killed is gone, restarted is back")
        func threeInstances() async throws {
            let binary = try #require(Binary.path, "\(Binary.SetupError.binaryNotFound)")
            let directory = try TemporaryDirectory()
            let sockets = directory.path("sockets")
            try FileManager.default.createDirectory(atPath: sockets, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            let paths = (1...3).map { "\(sockets)/s\($0).sock" }
            var demos: [TmuxSession] = []
            defer { for demo in demos { demo.close() } }
            for (index, path) in paths.enumerated() { demos.append(try await demo(publishingOn: path, directory: directory, name: "demo\(index + 1)")) }

            let watcher = try TmuxSession([binary, "attach"] + paths + ["--log", directory.path("attach.log")], width: 200, height: 40)
            defer { watcher.close() }
            let attached = await watcher.waitFor(.seconds(60)) { screen in
                screen.hasPrefix("CacheScope  ATTACHED 3 instances") && screen.contains("INSTANCE")
                    && ["cachescope-demo ", "cachescope-demo#2", "cachescope-demo#3"].allSatisfy(screen.contains)
            }
            try #require(attached.ok, "no fleet dashboard with an instance column and three instances:\n\(attached.screen)")

            // Each demo's own header counts its entries: let every store fill a little first.
            var stored: [Double] = []
            for (index, demo) in demos.enumerated() {
                let filled = await demo.waitFor(.seconds(60)) { (figure(after: "entries", in: $0) ?? 0) >= 8 }
                try #require(filled.ok, "demo \(index + 1) stores too little:\n\(filled.screen)")
                stored.append(figure(after: "entries", in: filled.screen) ?? 0)
            }

            // D, y: a purge of everything goes to every instance; each answers for itself.
            watcher.type("D")
            _ = await watcher.waitFor { Screen.statusLine($0).contains("y/n") }
            watcher.type("y")
            let purged = await watcher.waitFor { Screen.statusLine($0).contains("purgeAll on 3 instances") }
            #expect(purged.ok, "no result from three instances:\n\(purged.screen)")
            for (index, demo) in demos.enumerated() {
                // Each demo's own dashboard: its store emptied (the workload refills it at 5 requests/s).
                let emptied = await demo.waitFor(.seconds(20)) { (figure(after: "entries", in: $0) ?? .infinity) < stored[index] / 2 }
                #expect(emptied.ok, "demo \(index + 1)'s own store was not purged (had \(stored[index]) entries):\n\(emptied.screen)")
            }

            // Kill the second: shown as gone, its rows stay.
            demos[1].close()
            let gone = await watcher.waitFor(.seconds(30)) { $0.contains("(1 gone)") && $0.contains("✗") }
            #expect(gone.ok, "the killed instance is not shown as gone:\n\(gone.screen)")
            #expect(Screen.statusLine(gone.screen).contains("is gone"), "\(Screen.statusLine(gone.screen))")

            // Start it again on the same socket: a new life of the same instance.
            demos[1] = try await demo(publishingOn: paths[1], directory: directory, name: "demo2-again")
            let back = await watcher.waitFor(.seconds(60)) { screen in
                !screen.contains("(1 gone)") && Screen.statusLine(screen).contains("is back as a new process")
            }
            #expect(back.ok, "the restarted instance is not reconnected:\n\(back.screen)")

            watcher.type("q")
            #expect(await watcher.waitForExit() == 0)
            let log = (try? String(contentsOfFile: directory.path("attach.log"), encoding: .utf8)) ?? ""
            #expect(log.contains("fleet command"), "the purge is not in the attach log:\n\(log)")
        }

        @Test("attach S1 S2 with nothing listening on either is one line naming both, status 1; a socket named twice or a directory is a usage error (64)")
        func noneReachable() async throws {
            let directory = try TemporaryDirectory()
            let result = try await Binary.run(["attach", directory.path("a.sock"), directory.path("b.sock"), "--no-ui"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("none of the 2 attach sockets could be reached"), "\(result.stderr)")
            #expect(result.stderr.contains(directory.path("a.sock")) && result.stderr.contains(directory.path("b.sock")))

            let twice = try await Binary.run(["attach", directory.path("a.sock"), directory.path("a.sock"), "--no-ui"])
            #expect(twice.status == 64 && twice.stderr == "cachescope: attach: each SOCKET may be named once\n", "\(twice)")
            let notSocket = try await Binary.run(["attach", directory.path(""), directory.path("b.sock"), "--no-ui"])
            #expect(notSocket.status == 64 && notSocket.stderr.contains("is a directory, not an attach socket"), "\(notSocket)")
        }
    }
}
