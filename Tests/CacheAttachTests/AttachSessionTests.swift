import CacheStore
import CacheAttach
import CacheEvents
import SessionLog
import Foundation
import Testing

/// Dashboards attached to a running app over a real Unix socket: events out, commands in.
@Suite("Attached dashboards", .timeLimit(.minutes(2)))
struct AttachSessionTests {
    @Test("two dashboards attached at once both receive every event, in order")
    func twoDashboards() async throws {
        try await withPublishedStore { store, server, _ in
            let first = try await AttachClient.connect(path: server.path)
            let second = try await AttachClient.connect(path: server.path)

            for index in 1...50 { await store.store("GET https://example.com/\(index)") }

            for client in [first, second] {
                // The snapshot (entries, storeStats) comes first, then the 50 live events.
                let events = try await collect(client, count: 52)
                #expect(events.prefix(2).map(\.kind.name) == ["entries", "storeStats"])
                let stored = events.dropFirst(2).compactMap { event -> String? in
                    if case .stored(let stored) = event.kind { return stored.entry.key }
                    return nil
                }
                #expect(stored == (1...50).map { "GET https://example.com/\($0)" })
                // Snapshot events carry the seq of the last event before them; live ones count up.
                let live = Array(events.dropFirst(2))
                #expect(zip(live, live.dropFirst()).allSatisfy { $0.seq < $1.seq })
                #expect(events.prefix(2).allSatisfy { $0.seq < live[0].seq })
            }
            #expect(first.server.process == "ministore")
            #expect(first.server.pid == ProcessInfo.processInfo.processIdentifier)
            first.close()
            second.close()
        }
    }

    @Test("a dashboard that attaches late first receives the store's entries and counters")
    func lateDashboardGetsSnapshot() async throws {
        try await withPublishedStore { store, server, _ in
            await store.store("GET https://example.com/a", size: 300)
            await store.store("GET https://example.com/b", size: 200)
            await store.store("GET https://example.com/c", size: 100)

            let client = try await AttachClient.connect(path: server.path)
            await store.store("GET https://example.com/d")
            let events = try await collect(client, count: 3)

            guard case .entries(let snapshot) = events[0].kind else {
                Issue.record("first event is \(events[0].kind.name), not entries")
                return
            }
            #expect(snapshot.entries.map(\.entry.key) == ["a", "b", "c"].map { "GET https://example.com/\($0)" })
            guard case .storeStats(let stats) = events[1].kind else {
                Issue.record("second event is \(events[1].kind.name), not storeStats")
                return
            }
            #expect(stats.entryCount == 3)
            #expect(stats.memoryUsed == 600)
            // Earlier `stored` events are not replayed; the next event is the live one.
            guard case .stored(let live) = events[2].kind else {
                Issue.record("third event is \(events[2].kind.name), not stored")
                return
            }
            #expect(live.entry.key == "GET https://example.com/d")
            client.close()
        }
    }

    @Test("a command reaches the app and its result comes back to the dashboard that sent it only")
    func commandRoundTrip() async throws {
        try await withPublishedStore(prepare: { await $0.store("GET https://example.com/a") }) { store, server, _ in
            let sender = try await AttachClient.connect(path: server.path)
            let bystander = try await rawPeerPastSnapshot(server)

            let result = try await sender.send(.purge(key: "GET https://example.com/a"))
            #expect(result == CommandResult(succeeded: true, message: "purged 1 entry"))
            #expect(await store.receivedCommands == [.purge(key: "GET https://example.com/a")])
            #expect(await store.entries.isEmpty)

            let missing = try await sender.send(.refresh(key: "GET https://example.com/zzz", variant: nil))
            #expect(missing == CommandResult(succeeded: false, message: "nothing stored under GET https://example.com/zzz"))

            // The bystander sees the purge as events, but no result line.
            store.bus.publish(.error(ErrorInfo(message: "sentinel")))
            let seen = try await bystander.readLines { $0.contains("sentinel") }
            #expect(seen.contains { $0.contains("\"purged\"") })
            #expect(try seen.map { try RawServerLine.parse($0).type }.allSatisfy { $0 == "event" })
            sender.close()
        }
    }

    @Test("commands sent concurrently each get their own result")
    func concurrentCommands() async throws {
        let keys = (1...8).map { "GET https://example.com/\($0)" }
        try await withPublishedStore(prepare: { store in for key in keys { await store.store(key) } }) { _, server, _ in
            let client = try await AttachClient.connect(path: server.path)

            let results = try await withThrowingTaskGroup(of: (String, CommandResult).self) { group in
                for key in keys {
                    group.addTask { (key, try await client.send(.reload(key: key, variant: nil))) }
                }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            for key in keys {
                #expect(results[key]?.message == "reload \(key): 304, fresh for 60s")
            }
            client.close()
        }
    }

    @Test("malformed lines get an error result naming the problem, and the server keeps working")
    func malformedLines() async throws {
        try await withPublishedStore { _, server, _ in
            let peer = try await rawPeerPastSnapshot(server)

            let cases: [(line: String, id: Int?, message: String)] = [
                ("this is not json", nil, "not valid JSON"),
                ("[1,2]", nil, "expected a JSON object"),
                (#"{"type":"subscribe","id":4}"#, 4, #"unknown line type "subscribe" (a dashboard sends "command" lines)"#),
                (#"{"type":"command","command":{"purgeAll":{}}}"#, nil, #"missing or non-integer field "id""#),
                (#"{"type":"command","id":5}"#, 5, #"missing field "command" (for example {"purge":{"key":"GET https://…"}})"#),
                (
                    #"{"type":"command","id":6,"command":{"frobnicate":{}}}"#, 6,
                    #"unknown command "frobnicate"; known commands: purge, purgeTag, purgePrefix, purgeFilter, purgeAll, purgeExpired, refresh, reload"#
                ),
                (#"{"type":"command","id":7,"command":{"purge":{}}}"#, 7, #"command "purge": missing field "command.purge.key""#),
                (#"{"type":"command","id":8,"command":{"purge":{"key":3}}}"#, 8, #"command "purge": field "command.purge.key" must be a string"#),
            ]
            for (line, id, message) in cases {
                try peer.send(line + "\n")
                let reply = try RawServerLine.parse(try await peer.readLine())
                #expect(reply.type == "result", "for \(line)")
                #expect(reply.id == id, "for \(line)")
                #expect(reply.succeeded == false, "for \(line)")
                #expect(reply.message == message, "for \(line)")
            }

            // The same connection still works, and so do new ones.
            try peer.send(#"{"type":"command","id":9,"command":{"purgeAll":{}}}"# + "\n")
            let lines = try await peer.readLines { $0.contains("\"result\"") }
            let reply = try RawServerLine.parse(try #require(lines.last))
            #expect(reply.id == 9 && reply.succeeded == true && reply.message == "purged 0 entries")
            #expect(try await sendFromNewClient(.purgeExpired, to: server).succeeded)
        }
    }

    @Test("a line longer than 64 KiB gets an error result, that connection ends, the server goes on")
    func overlongLine() async throws {
        try await withPublishedStore { _, server, _ in
            let peer = try await rawPeerPastSnapshot(server)

            try peer.send(String(repeating: "x", count: 70_000))
            let reply = try RawServerLine.parse(try await peer.readLine())
            #expect(reply.type == "result" && reply.succeeded == false)
            #expect(reply.message == "line longer than 65536 bytes; closing the connection")
            #expect(await peer.isClosedByPeer())

            #expect(try await sendFromNewClient(.purgeAll, to: server).message == "purged 0 entries")
        }
    }

    @Test("a dashboard that leaves, or a stopped server, leaves no subscription on the bus")
    func subscriptionsEnd() async throws {
        try await withPublishedStore { store, server, _ in
            let client = try await AttachClient.connect(path: server.path)
            #expect(store.bus.hasSubscribers)
            client.close()
            #expect(await eventually { !store.bus.hasSubscribers })

            // A stalled dashboard: its connection's writer is stuck waiting for the socket when
            // the server stops, so its loop ends by a failed write rather than a cancelled read.
            let stalled = try RawLineSocket(path: server.path)
            _ = try await stalled.readLine()
            let filler = String(repeating: "f", count: 1_000)
            for index in 1...2_000 { store.bus.publish(.error(ErrorInfo(message: "filler \(index) \(filler)"))) }
            // Stop once the writer has filled the socket (64 KiB unread, of 2 MB to send): it is
            // then waiting for room. A handshake on what the dashboard's socket holds, not a sleep.
            #expect(await eventually { stalled.queuedBytes() >= 64 << 10 }, "the writer never filled the stalled socket")
            #expect(store.bus.hasSubscribers)
            await server.stop()
            #expect(!store.bus.hasSubscribers)
            #expect(await stalled.isClosedByPeer())
        }
    }
}
