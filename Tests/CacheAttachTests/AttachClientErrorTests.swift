import CacheAttach
import CacheEvents
import SessionLog
import Foundation
import Testing

/// What a dashboard is told when attaching or talking fails.
@Suite("Attach client errors", .timeLimit(.minutes(2)))
struct AttachClientErrorTests {
    @Test("no such socket, and nothing to discover")
    func nothingThere() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("gone.sock")
        await #expect(throws: AttachError.noSuchSocket(path: path)) {
            _ = try await AttachClient.connect(path: path)
        }

        try makeStaleSocket(at: directory.file("old-12.sock"))
        let targets = AttachClient.discover(in: [directory.path])
        let error = #expect(throws: AttachError.self) {
            _ = try AttachClient.chooseTarget(among: targets, searched: [directory.path])
        }
        #expect(error == .noPublishers(searched: [directory.path], stale: [directory.file("old-12.sock")]))
        #expect(AttachError.noPublishers(searched: ["/run/user/1000/cachescope"], stale: []).description
            == "no CacheScope process is publishing; start one with `cachescope demo --publish` "
            + "(looked in /run/user/1000/cachescope)")
    }

    @Test("several live processes: the dashboard is asked to choose")
    func severalPublishers() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let one = try await MiniStore().publish(at: directory.file("one-1.sock"))
        let two = try await MiniStore().publish(at: directory.file("two-2.sock"))
        let targets = AttachClient.discover(in: [directory.path])
        #expect(throws: AttachError.severalPublishers(targets)) {
            _ = try AttachClient.chooseTarget(among: targets, searched: [directory.path])
        }
        #expect(AttachError.severalPublishers(targets).description.hasSuffix("choose one with `cachescope attach SOCKET`"))
        await one.stop()
        await two.stop()
    }

    @Test("a peer speaking another protocol version is refused with both versions named")
    func versionMismatch() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("future.sock")
        let future = try GreetingServer(
            path: path, greeting: #"{"type":"hello","format":"cachescope-attach","version":2,"process":"x","pid":1}"# + "\n"
        )
        defer { future.stop() }
        let error = await #expect(throws: AttachError.self) {
            _ = try await AttachClient.connect(path: path)
        }
        #expect(error == .versionMismatch(path: path, peerVersion: 2, supportedVersion: 1))
        #expect(error?.description == "\(path) speaks attach protocol version 2 but this build speaks version 1; "
            + "use the same CacheScope version in the app and the dashboard")
    }

    @Test("a peer that is not an attach server, or says nothing, is refused")
    func notAnAttachServer() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let http = directory.file("http.sock")
        let httpServer = try GreetingServer(path: http, greeting: "HTTP/1.1 400 Bad Request\r\n\r\n")
        defer { httpServer.stop() }
        await #expect(throws: AttachError.notAnAttachSocket(path: http, detail: "its first line is not a hello")) {
            _ = try await AttachClient.connect(path: http)
        }

        let silent = directory.file("silent.sock")
        let silentServer = try GreetingServer(path: silent, greeting: "")
        defer { silentServer.stop() }
        await #expect(throws: AttachError.timedOut(path: silent, waitingFor: "greeting", seconds: 0.3)) {
            _ = try await AttachClient.connect(path: silent, timeout: .milliseconds(300))
        }
    }

    @Test("the app going away ends the stream with closedByPeer and fails later commands")
    func closedByPeer() async throws {
        try await withPublishedStore { _, server, _ in
            let client = try await AttachClient.connect(path: server.path)
            // Take the snapshot first, so the app goes away after it was delivered (stopping at
            // once would race the snapshot's delivery).
            var iterator = client.events.makeAsyncIterator()
            var received: [String] = []
            for _ in 0..<2 {
                if let event = try await iterator.next() { received.append(event.kind.name) }
            }
            #expect(received == ["entries", "storeStats"])
            await server.stop()

            do {
                while try await iterator.next() != nil {}
                Issue.record("the stream ended without reporting that the app went away")
            } catch let error as AttachError {
                #expect(error == .closedByPeer(path: server.path))
            }
            // The connection is gone: a command fails at once, saying who closed it (not
            // "closed by this dashboard", as it once did).
            await #expect(throws: AttachError.closedByPeer(path: server.path)) {
                _ = try await client.send(.purgeAll)
            }
        }
    }

    static let hello = #"{"type":"hello","format":"cachescope-attach","version":1,"process":"app","pid":7}"# + "\n"

    @Test("a peer that resets the connection after its hello went away; it is not \"not an attach socket\"")
    func resetAfterHello() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("reset.sock")
        let server = try GreetingServer(path: path, greeting: Self.hello, resetAfterGreeting: true)
        defer { server.stop() }
        let client = try await AttachClient.connect(path: path)
        await #expect(throws: AttachError.closedByPeer(path: path)) {
            for try await _ in client.events {}
        }
    }

    @Test("a hello naming no process id (0, -5) is refused; a process name and a result message with control characters are shown without them")
    func peerText() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for pid in [0, -5] {
            let path = directory.file("pid\(pid).sock")
            let server = try GreetingServer(
                path: path, greeting: #"{"type":"hello","format":"cachescope-attach","version":1,"process":"","pid":\#(pid)}"# + "\n")
            defer { server.stop() }
            await #expect(throws: AttachError.notAnAttachSocket(path: path, detail: "its hello names process id \(pid), which no process has")) {
                _ = try await AttachClient.connect(path: path)
            }
        }
        let path = directory.file("escape.sock")
        let server = try GreetingServer(
            path: path, greeting: #"{"type":"hello","format":"cachescope-attach","version":1,"process":"ap\u001b[2Jp\u202e","pid":7}"# + "\n"
        ) { line in
            let id = (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? Int ?? -1
            return #"{"type":"result","id":\#(id),"succeeded":true,"message":"purged\u001b[31m 2\nentries"}"# + "\n"
        }
        defer { server.stop() }
        let client = try await AttachClient.connect(path: path)
        #expect(client.server.process == "ap\u{FFFD}[2Jp\u{FFFD}")
        let result = try await client.send(.purgeAll)
        #expect(result.message == "purged\u{FFFD}[31m 2\u{FFFD}entries")
        client.close()
    }

    @Test("the app finishing its event bus ends attached dashboards' streams")
    func busFinished() async throws {
        try await withPublishedStore { store, server, _ in
            let client = try await AttachClient.connect(path: server.path)
            store.bus.publish(.error(ErrorInfo(message: "last words")))
            store.bus.finish()
            var received: [String] = []
            await #expect(throws: AttachError.closedByPeer(path: server.path)) {
                for try await event in client.events { received.append(event.kind.name) }
            }
            #expect(received == ["entries", "storeStats", "error"])
        }
    }

    @Test("closing the client finishes its stream and fails commands with closed")
    func closedLocally() async throws {
        try await withPublishedStore { store, server, _ in
            let client = try await AttachClient.connect(path: server.path)
            client.close()
            var count = 0
            for try await _ in client.events { count += 1 }
            #expect(count <= 2)
            await #expect(throws: AttachError.closed(path: server.path)) {
                _ = try await client.send(.purgeAll)
            }
            #expect(await store.receivedCommands.isEmpty)
        }
    }

    @Test("a command without an answer in time fails with timedOut")
    func commandTimeout() async throws {
        try await withPublishedStore(prepare: { await $0.setCommandDelay(.seconds(2)) }) { store, server, _ in
            let client = try await AttachClient.connect(path: server.path)
            await #expect(throws: AttachError.timedOut(path: server.path, waitingFor: "answer to purgeAll", seconds: 0.2)) {
                _ = try await client.send(.purgeAll, timeout: .milliseconds(200))
            }
            // The server reads the command on its own time (before its 2 s delay); on a busy
            // machine that can come after the client has given up.
            #expect(await eventually(timeout: .seconds(10)) { await store.receivedCommands == [.purgeAll] })
            client.close()
        }
    }
}
