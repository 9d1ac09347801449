import CacheAttach
import CacheEvents
import CacheScopeApp
import Foundation
import Testing
import TerminalUI
@testable import Dashboard

/// A fleet dashboard over real Unix sockets when an instance goes away and comes back: its open
/// requests end, and the status line's colour follows what happened (not the words of a name).
@Suite("Fleet attach: gone and back", .timeLimit(.minutes(2)))
struct FleetLivesAttachTests {
    /// Polls (without a fixed sleep) until `condition` holds or 10 s pass.
    private func eventually(_ condition: () async -> Bool) async -> Bool {
        for _ in 0..<1000 {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return await condition()
    }

    private func rows(_ state: DashboardState) -> [RequestRecord] {
        let log = state.traffic.requests
        guard let oldest = log.oldestSerial, let newest = log.newestSerial else { return [] }
        return (oldest...newest).compactMap { log[serial: $0] }
    }

    @Test("an instance that stops with a request open: the request is cut off, no longer in flight; the other's stays open")
    func openRequestsEndWhenGone() async throws {
        let sockets = try FleetSockets()
        defer { sockets.remove() }
        let members = [FleetMember(path: sockets.path("a.sock"), processName: "web"), FleetMember(path: sockets.path("b.sock"), processName: "api")]
        for member in members { try await member.start() }
        let fleet = try await FleetAttach.connect(
            paths: members.map(\.path), retry: FleetRetry(initial: .milliseconds(50), maximum: .milliseconds(200)))
        defer { fleet.close() }
        let app = fleet.dashboard(theme: try ThemeLoader.builtIn(named: "default"), status: nil, rewindEvents: 100)
        let consumer = Task { await app.consumeEvents(redraw: {}) }
        defer { consumer.cancel() }
        await members[0].open("GET http://example.com/busy", id: 1)
        await members[1].open("GET http://example.com/slow", id: 1)
        #expect(await eventually { app.snapshot.traffic.requests.openCount == 2 })

        await members[1].stop()
        #expect(await eventually { app.snapshot.traffic.requests.openCount == 1 }, "api's request no longer counts as in flight")
        let api = try #require(rows(app.snapshot).first { $0.instance == 1 })
        #expect(api.isCutOff)
        #expect(rows(app.snapshot).first { $0.instance == 0 }?.isCutOff == false)
        #expect(app.snapshot.interface.status?.kind == .failure)
        let grid = app.frame(size: TerminalSize(columns: 120, rows: 30), theme: app.theme, redraw: {})
        #expect(grid.text.split(separator: "\n").contains { $0.contains("/slow") && $0.contains("CUT OFF") }, "\(grid.text)")

        // Back (the same process here): its requests from now on are open as usual.
        try await members[1].start()
        #expect(await eventually { app.snapshot.interface.instances[1]?.connected == true })
        await members[1].open("GET http://example.com/next", id: 2)
        #expect(await eventually { app.snapshot.traffic.requests.openCount == 2 })
        for member in members { await member.stop() }
    }

    @Test("the status line's colour comes from what happened: an instance named \"… is gone: …\" that reconnects is not a failure")
    func typedNoticeKind() async throws {
        let sockets = try FleetSockets()
        defer { sockets.remove() }
        let members = [
            FleetMember(path: sockets.path("a.sock"), processName: "web"),
            FleetMember(path: sockets.path("b.sock"), processName: "db is gone: no"),
        ]
        for member in members { try await member.start() }
        let fleet = try await FleetAttach.connect(
            paths: members.map(\.path), retry: FleetRetry(initial: .milliseconds(50), maximum: .milliseconds(200)))
        defer { fleet.close() }
        let app = fleet.dashboard(theme: try ThemeLoader.builtIn(named: "default"), status: nil, rewindEvents: 0)
        await members[1].stop()
        #expect(await eventually { app.snapshot.interface.instances[1]?.connected == false })
        #expect(await eventually { app.snapshot.interface.status?.kind == .failure })
        try await members[1].start()
        #expect(await eventually { app.snapshot.interface.status?.text.hasSuffix(" reconnected") == true })
        #expect(app.snapshot.interface.status?.kind == .info, "\(String(describing: app.snapshot.interface.status))")
        for member in members { await member.stop() }
    }
}
