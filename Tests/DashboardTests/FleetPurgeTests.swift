import CacheEvents
import CacheStore
import HTTPCaching
import TerminalUI
import Testing
@testable import Dashboard

/// Marks and purges of several keys in a fleet: a mark names one instance's copy of a key, and
/// a purge of several keys comes back as one report.
@Suite("A fleet's marks and multi-key purges")
struct FleetPurgeTests {
    static let roster = FleetFixture.roster("web", "api")

    private func fleetState() -> DashboardState { FleetFixture.state(Self.roster) }

    @Test("m marks one instance's copy of a URL, not every instance's; d purges only that copy")
    func marksPerInstance() throws {
        var make = FleetEvents()
        var state = fleetState()
        let key = "GET http://example.com/a"
        for event in make.miss(key, id: 1, instance: 0) + make.miss(key, id: 1, instance: 1) { state.apply(event) }
        _ = DashboardKeys.handle(.character("2"), state: &state)
        state.interface.entrySelection = EntryRowID(ref: EntryRef(key: key), instance: 1)
        _ = DashboardKeys.handle(.character("m"), state: &state)
        #expect(state.interface.marks == [PurgeTarget(key: key, instance: 1)])

        let grid = try render(state, size: TerminalSize(columns: 120, rows: 30), now: 2).text
        let entryRows = grid.split(separator: "\n").filter { $0.contains("/a ") && $0.contains(" mem ") }
        #expect(entryRows.count == 2, "\(grid)")
        #expect(entryRows.filter { $0.contains("•") }.count == 1, "\(grid)")
        #expect(entryRows.contains { $0.contains("•") && $0.contains("api") })

        _ = DashboardKeys.handle(.character("d"), state: &state)
        guard case .confirmPurge(let preview) = state.interface.overlay else {
            Issue.record("no purge preview")
            return
        }
        #expect(preview.entries == 1)
        let sent = DashboardKeys.handle(.character("y"), state: &state)
        #expect(sent == [.purgeEach([PurgeTarget(key: key, instance: 1): 1]), .redraw])
        #expect(state.interface.marks.isEmpty)
    }

    @Test("a purge of several keys in a fleet is one report: entries and instances, failures by instance")
    func purgeReport() {
        let ok = CommandResult(succeeded: true, message: "purged 1 entry")
        let all = FleetPurgeReport(answers: [
            .init(key: "GET /a", name: "web", entries: 2, result: ok),
            .init(key: "GET /a", name: "api", entries: 1, result: ok),
            .init(key: "GET /b", name: "api", entries: 1, result: ok),
        ])
        #expect(all.succeeded)
        #expect(all.message == "purged 4 entries on 2 instances (2 keys)")

        let some = FleetPurgeReport(answers: [
            .init(key: "GET /a", name: "web", entries: 2, result: ok),
            .init(key: "GET /a", name: "api", entries: 1, result: nil),
            .init(key: "GET /b", name: "api", entries: 1, result: nil),
            .init(key: "GET /c", name: "db", entries: 1, result: CommandResult(succeeded: false, message: "failed: timed out")),
        ])
        #expect(!some.succeeded)
        #expect(some.message
            == "purge: 3 of 4 failed — api: gone (not told) (2 keys) · db: failed: timed out (GET /c) — purged 2 entries on 1 instance (1 key)")
    }
}
