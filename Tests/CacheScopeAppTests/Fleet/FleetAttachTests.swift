import CacheAttach
import CacheEvents
import CacheScopeApp
import Foundation
import Testing
import TerminalUI
@testable import Dashboard

/// `cachescope attach S1 S2 S3`'s engine over real Unix sockets: three published apps merged
/// into one dashboard, purges from the dashboard reaching each app (checked in the apps' own
/// state), an app that stops shown as gone and reconnected when it publishes again.
@Suite("Fleet attach", .timeLimit(.minutes(2)))
struct FleetAttachTests {
    /// Three members in a private directory: `web`, `web` (told apart as `web#2`) and `api`.
    private func threeMembers() throws -> (FleetSockets, [FleetMember]) {
        let sockets = try FleetSockets()
        let members = [
            FleetMember(path: sockets.path("a.sock"), processName: "web"),
            FleetMember(path: sockets.path("b.sock"), processName: "web"),
            FleetMember(path: sockets.path("c.sock"), processName: "api"),
        ]
        return (sockets, members)
    }

    /// Polls (without a fixed sleep) until `condition` holds or 10 s pass.
    private func eventually(_ condition: () async -> Bool) async -> Bool {
        for _ in 0..<1000 {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return await condition()
    }

    @Test("three instances merge into one dashboard: same names told apart, same keys and request IDs are separate rows")
    func mergesThree() async throws {
        let (sockets, members) = try threeMembers()
        defer { sockets.remove() }
        for member in members { try await member.start() }
        let fleet = try await FleetAttach.connect(paths: members.map(\.path))
        defer { fleet.close() }
        #expect(fleet.roster.names == ["web", "web#2", "api"])
        #expect(fleet.roster.connectedCount == 3)

        let app = fleet.dashboard(theme: try ThemeLoader.builtIn(named: "default"), status: nil, rewindEvents: 0)
        let consumer = Task { await app.consumeEvents(redraw: {}) }
        defer { consumer.cancel() }
        // Every member makes request 1 for the same key.
        for member in members { await member.request("GET http://example.com/a", id: 1) }
        #expect(await eventually { app.snapshot.traffic.counters.requests == 3 })

        let state = app.snapshot
        #expect(state.traffic.entries.count == 3, "one row per instance for the same key")
        #expect(Set(state.traffic.entries.all.map(\.instanceName)) == ["web", "web#2", "api"])
        let rows = (state.traffic.requests.oldestSerial!...state.traffic.requests.newestSerial!).compactMap { state.traffic.requests[serial: $0] }
        #expect(rows.count == 3)
        #expect(rows.allSatisfy { $0.isFinished }, "each instance's request 1 finished its own row")
        #expect(state.traffic.perInstance.map(\.counters.requests) == [1, 1, 1])

        let grid = app.frame(size: TerminalSize(columns: 120, rows: 40), theme: app.theme, redraw: {})
        #expect(grid.text.contains("ATTACHED 3 instances"))
        #expect(grid.text.contains("INSTANCE"))
        #expect(grid.text.contains("web#2"))
        for member in members { await member.stop() }
    }

    @Test("D then y in the fleet dashboard purges every instance, each through its own socket")
    func purgeAllFromDashboard() async throws {
        let (sockets, members) = try threeMembers()
        defer { sockets.remove() }
        for (index, member) in members.enumerated() {
            try await member.start()
            await member.request("GET http://example.com/\(index)", id: 1)
            await member.request("GET http://example.com/shared", id: 2)
        }
        let fleet = try await FleetAttach.connect(paths: members.map(\.path))
        defer { fleet.close() }
        let app = fleet.dashboard(theme: try ThemeLoader.builtIn(named: "default"), status: nil, rewindEvents: 0)
        let consumer = Task { await app.consumeEvents(redraw: {}) }
        defer { consumer.cancel() }
        #expect(await eventually { app.snapshot.traffic.entries.count == 6 })

        _ = app.handle(.character("D"), theme: app.theme, redraw: {})
        _ = app.handle(.character("y"), theme: app.theme, redraw: {})
        #expect(await eventually {
            var emptied = true
            for member in members where await !member.keys.isEmpty { emptied = false }
            return emptied
        })
        for member in members { #expect(await member.received == [.purgeAll]) }
        #expect(await eventually { app.snapshot.interface.status?.text.hasPrefix("purgeAll on 3 instances — ") == true })
        #expect(await eventually { app.snapshot.traffic.entries.isEmpty }, "each instance's purge clears its own rows")
        for member in members { await member.stop() }
    }

    @Test("a purge of one entry goes only to the instance that stores it; :purge instance:NAME only to that one")
    func purgeGoesToOwner() async throws {
        let (sockets, members) = try threeMembers()
        defer { sockets.remove() }
        for member in members {
            try await member.start()
            await member.request("GET http://example.com/shared", id: 1)
        }
        let fleet = try await FleetAttach.connect(paths: members.map(\.path))
        defer { fleet.close() }
        let app = fleet.dashboard(theme: try ThemeLoader.builtIn(named: "default"), status: nil, rewindEvents: 0)
        let consumer = Task { await app.consumeEvents(redraw: {}) }
        defer { consumer.cancel() }
        #expect(await eventually { app.snapshot.traffic.entries.count == 3 })

        // The filter language picks api's row; `:purge` sends it to api only.
        _ = app.handle(.character(":"), theme: app.theme, redraw: {})
        for character in "instance:api" { _ = app.handle(.character(character), theme: app.theme, redraw: {}) }
        _ = app.handle(.enter, theme: app.theme, redraw: {})
        #expect(app.snapshot.interface.status?.text.hasPrefix("purge 1 entry") == true, "\(String(describing: app.snapshot.interface.status))")
        _ = app.handle(.character("y"), theme: app.theme, redraw: {})
        #expect(await eventually { await members[2].keys.isEmpty })
        #expect(await members[2].received == [.purge(key: "GET http://example.com/shared")])
        #expect(await members[0].received.isEmpty)
        #expect(await members[1].received.isEmpty)
        #expect(await eventually { app.snapshot.traffic.entries.count == 2 })
        for member in members { await member.stop() }
    }

    @Test("an instance that stops is shown as gone, keeps its rows, and is reconnected when it publishes again")
    func goneAndBack() async throws {
        let (sockets, members) = try threeMembers()
        defer { sockets.remove() }
        for member in members { try await member.start() }
        let fleet = try await FleetAttach.connect(paths: members.map(\.path), retry: FleetRetry(initial: .milliseconds(50), maximum: .milliseconds(200)))
        defer { fleet.close() }
        let app = fleet.dashboard(theme: try ThemeLoader.builtIn(named: "default"), status: nil, rewindEvents: 0)
        let consumer = Task { await app.consumeEvents(redraw: {}) }
        defer { consumer.cancel() }
        await members[1].request("GET http://example.com/b", id: 1)
        #expect(await eventually { app.snapshot.traffic.entries.count == 1 })

        await members[1].stop()
        #expect(await eventually { app.snapshot.interface.instances[1]?.connected == false })
        #expect(await eventually {
            let status = app.snapshot.interface.status?.text ?? ""
            return status.hasPrefix("web#2 (pid ") && status.contains(" is gone: ")
        }, "\(String(describing: app.snapshot.interface.status))")
        #expect(app.snapshot.traffic.entries.count == 1, "a gone instance's rows stay")
        let grid = app.frame(size: TerminalSize(columns: 120, rows: 40), theme: app.theme, redraw: {})
        #expect(grid.text.contains("(1 gone)"))

        // A purge of everything now tells the two that are there and says who was not told.
        _ = app.handle(.character("D"), theme: app.theme, redraw: {})
        _ = app.handle(.character("y"), theme: app.theme, redraw: {})
        #expect(await eventually {
            let status = app.snapshot.interface.status?.text ?? ""
            return status.hasPrefix("purgeAll: 1 of 3 instances failed — ") && status.contains("web#2: gone (not told)")
        }, "\(String(describing: app.snapshot.interface.status))")
        #expect(await members[1].received.isEmpty)

        try await members[1].start()
        #expect(await eventually { app.snapshot.interface.instances[1]?.connected == true })
        #expect(await eventually {
            app.snapshot.interface.status?.text == "web#2 (pid \(ProcessInfo.processInfo.processIdentifier)) reconnected"
        }, "\(String(describing: app.snapshot.interface.status))")
        // Its snapshot on reconnecting stands for its store now: the key it still holds.
        #expect(await eventually { app.snapshot.traffic.entries.count == 1 })
        for member in members { await member.stop() }
    }

    @Test("sockets missing at the start: none reachable is one clear error; otherwise the rest start and the missing one joins later")
    func missingAtStart() async throws {
        let (sockets, members) = try threeMembers()
        defer { sockets.remove() }
        await #expect {
            _ = try await FleetAttach.connect(paths: members.map(\.path), timeout: .seconds(2))
        } throws: { error in
            guard case FleetAttachError.noneReachable(let failures) = error else { return false }
            return failures.map(\.path) == members.map(\.path) && "\(error)".contains("none of the 3 attach sockets could be reached")
        }

        try await members[0].start()
        let fleet = try await FleetAttach.connect(paths: members.map(\.path), retry: FleetRetry(initial: .milliseconds(50), maximum: .milliseconds(200)))
        defer { fleet.close() }
        #expect(fleet.roster.instances.map(\.connected) == [true, false, false])
        #expect(fleet.roster.names == ["web", "b", "c"], "not reached yet: named after the socket file")
        await #expect(throws: FleetAttachError.self) { _ = try await fleet.send(.purgeAll, to: 2) }

        try await members[2].start()
        #expect(await eventually { fleet.roster.instances.map(\.connected) == [true, false, true] })
        #expect(fleet.roster.names == ["web", "b", "api"])
        #expect(try await fleet.send(.purgeAll, to: 2).succeeded)
        for member in members { await member.stop() }
    }
}

/// A private directory (0700, as attach sockets need) for one test's sockets, with a short path.
final class FleetSockets: Sendable {
    let directory: String

    init() throws {
        directory = "/tmp/cs-fleet-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }

    func path(_ name: String) -> String { directory + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
}
