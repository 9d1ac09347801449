import CacheAttach
import CacheEvents
import CacheScopeApp
import Foundation
import Testing
import TerminalUI
@testable import Dashboard

/// A purge of several keys from a fleet dashboard over real Unix sockets: each instance is told
/// its own keys, and the status line reports the whole purge once.
@Suite("Fleet attach: multi-key purges", .timeLimit(.minutes(2)))
struct FleetPurgeAttachTests {
    /// Polls (without a fixed sleep) until `condition` holds or 10 s pass.
    private func eventually(_ condition: () async -> Bool) async -> Bool {
        for _ in 0..<1000 {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return await condition()
    }

    @Test(":purge of several keys on several instances: one report of entries and instances, and who was not told")
    func multiKeyPurgeReport() async throws {
        let sockets = try FleetSockets()
        defer { sockets.remove() }
        let members = [
            FleetMember(path: sockets.path("a.sock"), processName: "web"),
            FleetMember(path: sockets.path("b.sock"), processName: "api"),
            FleetMember(path: sockets.path("c.sock"), processName: "db"),
        ]
        for member in members {
            try await member.start()
            await member.request("GET http://example.com/a", id: 1)
            await member.request("GET http://example.com/b", id: 2)
        }
        let fleet = try await FleetAttach.connect(
            paths: members.map(\.path), retry: FleetRetry(initial: .seconds(5), maximum: .seconds(5)))
        defer { fleet.close() }
        let app = fleet.dashboard(theme: try ThemeLoader.builtIn(named: "default"), status: nil, rewindEvents: 0)
        let consumer = Task { await app.consumeEvents(redraw: {}) }
        defer { consumer.cancel() }
        #expect(await eventually { app.snapshot.traffic.entries.count == 6 })

        // db goes: its rows stay, and the purge cannot reach it.
        await members[2].stop()
        #expect(await eventually { app.snapshot.interface.instances[2]?.connected == false })
        _ = app.handle(.character(":"), theme: app.theme, redraw: {})
        for character in "url:example.com" { _ = app.handle(.character(character), theme: app.theme, redraw: {}) }
        _ = app.handle(.enter, theme: app.theme, redraw: {})
        _ = app.handle(.character("y"), theme: app.theme, redraw: {})
        let expected = "purge: 2 of 6 failed — db: gone (not told) (2 keys) — purged 4 entries on 2 instances (2 keys)"
        #expect(await eventually { app.snapshot.interface.status?.text == expected }, "\(String(describing: app.snapshot.interface.status))")
        #expect(await members[0].keys.isEmpty)
        #expect(await members[1].keys.isEmpty)
        for member in members { await member.stop() }
    }
}
