import CacheStore
import HTTPCaching
import HTTPTypes
import SessionLog
import CacheEvents
import TerminalUI
import TrafficFilter
import Testing
@testable import Dashboard

/// One dashboard over several instances (`cachescope attach S1 S2 …`): the fold keeps each
/// instance's requests, entries and figures apart; the instance column, the `instance:`
/// filter and commands follow the roster.
@Suite("A fleet in one dashboard")
struct FleetModelTests {
    static let roster = FleetFixture.roster("web", "web#2", "api")

    private func fleetState() -> DashboardState { FleetFixture.state(Self.roster) }

    @Test("the same key stored by two instances is two rows; a purge of everything on one leaves the other's")
    func keyCollisions() {
        var make = FleetEvents()
        var state = fleetState()
        for event in make.miss("GET http://example.com/a", id: 1, instance: 0) + make.miss("GET http://example.com/a", id: 1, instance: 1) {
            state.apply(event)
        }
        #expect(state.traffic.entries.count == 2)
        #expect(state.traffic.entries[EntryRowID(ref: EntryRef(key: "GET http://example.com/a"), instance: 1)]?.instanceName == "web#2")

        state.apply(make.event(.purged(Purged(scope: .all, count: 1)), instance: 1))
        #expect(state.traffic.entries.count == 1)
        #expect(state.traffic.entries.all.map(\.instanceName) == ["web"])

        // A snapshot from instance 2 (it connected late) adds its entries without replacing the others'.
        let info = EntryInfo(entry: EntryRef(key: "GET http://example.com/z"), tier: .disk, size: 10, ttl: 5, age: 0,
                             etag: nil, lastModified: nil, hits: 0, idle: 0, status: 200)
        state.apply(make.event(.entries(EntriesSnapshot(entries: [info])), instance: 2))
        #expect(state.traffic.entries.count == 2)
        #expect(Set(state.traffic.entries.all.map(\.instanceName)) == ["web", "api"])
    }

    @Test("request IDs repeat across instances: each request finishes its own row, and hits count on their own instance's entry")
    func requestIDCollisions() throws {
        var make = FleetEvents()
        var state = fleetState()
        let events = make.miss("GET http://example.com/a", id: 7, instance: 0) + make.miss("GET http://example.com/a", id: 7, instance: 2)
            + make.hit("GET http://example.com/a", id: 8, instance: 2)
        for event in events { state.apply(event) }
        let log = state.traffic.requests
        let rows = (log.oldestSerial!...log.newestSerial!).compactMap { log[serial: $0] }
        #expect(rows.map(\.instanceName) == ["web", "api", "api"])
        #expect(rows.allSatisfy { $0.isFinished })
        #expect(log.openCount == 0)
        let api = try #require(state.traffic.entries[EntryRowID(ref: EntryRef(key: "GET http://example.com/a"), instance: 2)])
        let web = try #require(state.traffic.entries[EntryRowID(ref: EntryRef(key: "GET http://example.com/a"), instance: 0)])
        #expect(api.hits == 1)
        #expect(web.hits == 0)
    }

    @Test("counters per instance add up to the totals the header shows")
    func perInstanceCounters() {
        var make = FleetEvents()
        var state = fleetState()
        let events = make.miss("GET http://example.com/a", id: 1, instance: 0) + make.hit("GET http://example.com/a", id: 2, instance: 0)
            + make.miss("GET http://example.com/b", id: 1, instance: 1, size: 300)
        for event in events { state.apply(event) }
        let figures = state.traffic.perInstance
        #expect(figures.map(\.counters.requests) == [2, 1])
        #expect(figures[0].counters.hitRatio == 0.5)
        #expect(figures[1].counters.hitRatio == 0)
        #expect(state.traffic.counters.requests == 3)
        #expect(state.traffic.counters.bytesFromNetwork == figures.reduce(0) { $0 + $1.counters.bytesFromNetwork })

        let lines = InstanceBreakdown.figures(state.traffic, roster: Self.roster)
        #expect(lines.map(\.name) == ["web", "web#2", "api", "total"])
        #expect(lines.map(\.requests) == [2, 1, 0, 3])
        #expect(lines.map(\.entries) == [1, 1, 0, 2])
        #expect(lines.map(\.bytes) == [100, 300, 0, 400])
    }

    @Test("store gauges of each instance add up in the header")
    func storeTotals() {
        var make = FleetEvents()
        var state = fleetState()
        state.apply(make.event(.storeStats(StoreStats(memoryUsed: 100, memoryCapacity: 1000, diskUsed: 0, diskCapacity: 0, entryCount: 1)), instance: 0))
        state.apply(make.event(.storeStats(StoreStats(memoryUsed: 50, memoryCapacity: 1000, diskUsed: 5, diskCapacity: 10, entryCount: 2)), instance: 1))
        #expect(state.traffic.store?.memoryUsed == 150)
        #expect(state.traffic.store?.memoryCapacity == 2000)
        #expect(state.traffic.store?.entryCount == 3)
        #expect(state.traffic.perInstance[1].store?.diskUsed == 5)
    }

    @Test("one instance: no breakdown, no names, no instance column (today's layout)")
    func singleInstanceUnchanged() throws {
        var make = FleetEvents()
        var state = DashboardState(mode: .attached(process: "web"))
        for event in make.miss("GET http://example.com/a", id: 1, instance: 0) { state.apply(event) }
        #expect(state.traffic.perInstance.isEmpty)
        #expect(state.traffic.entries.all.map(\.instanceName) == [""])
        let grid = try render(state, size: TerminalSize(columns: 120, rows: 40), now: 2)
        #expect(!grid.text.contains("INSTANCE"))
        #expect(grid.text.contains("ATTACHED web"))
    }

    @Test("the instance column shows each row's instance, and ✗ after one that is gone")
    func instanceColumn() throws {
        var make = FleetEvents()
        var state = fleetState()
        for event in make.miss("GET http://example.com/a", id: 1, instance: 0) + make.miss("GET http://example.com/b", id: 1, instance: 2) {
            state.apply(event)
        }
        var roster = Self.roster
        roster.instances[2].connected = false
        roster.instances[2].goneAfter = make.seq  // as a drop records it: after its last event
        state.setInstances(roster)
        let grid = try render(state, size: TerminalSize(columns: 120, rows: 40), now: 2)
        let lines = grid.text.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("INSTANCE") && $0.contains("URL") })
        #expect(lines.contains { $0.contains("api ✗") && $0.contains("/b") })
        #expect(lines.contains { $0.contains(" web ") && $0.contains("/a") && !$0.contains("web ✗") }, "\(grid.text)")
        #expect(grid.text.contains("ATTACHED 3 instances (1 gone)"))

        _ = DashboardKeys.handle(.character("3"), state: &state)
        let stats = try render(state, size: TerminalSize(columns: 120, rows: 40), now: 2).text
        #expect(stats.contains("Instances (2 of 3 connected)"))
        #expect(stats.split(separator: "\n").contains { $0.contains("api") && $0.contains("gone") })
    }

    @Test("an instance not reached yet is 'not yet', not gone: the header counts only instances that went away")
    func notYetIsNotGone() throws {
        var state = fleetState()
        var roster = Self.roster
        roster.instances[1] = InstanceStatus(name: "web#2", pid: 0, connected: false)
        state.setInstances(roster)
        #expect(state.traffic.goneCount(roster: roster) == 0)
        var grid = try render(state, size: TerminalSize(columns: 120, rows: 40), now: 2).text
        #expect(grid.contains("ATTACHED 3 instances") && !grid.contains("gone)"), "\(grid)")
        _ = DashboardKeys.handle(.character("3"), state: &state)
        grid = try render(state, size: TerminalSize(columns: 120, rows: 40), now: 2).text
        #expect(grid.split(separator: "\n").contains { $0.contains("web#2") && $0.contains("not yet") })
        #expect(!grid.contains("gone: last known figures"))

        roster.instances[2].connected = false
        state.setInstances(roster)
        #expect(state.traffic.goneCount(roster: roster) == 1)
        grid = try render(state, size: TerminalSize(columns: 120, rows: 40), now: 2).text
        #expect(grid.contains("ATTACHED 3 instances (1 gone)"))
    }

    @Test("instance:NAME filters the Requests and Entries views; drill-down on the instance column adds it")
    func instanceFilter() throws {
        var make = FleetEvents()
        var state = fleetState()
        for event in make.miss("GET http://example.com/a", id: 1, instance: 0) + make.miss("GET http://example.com/a", id: 1, instance: 1)
            + make.miss("GET http://example.com/c", id: 2, instance: 1) {
            state.apply(event)
        }
        state.apply(try Filter("instance=web#2"))
        #expect(RequestRows(log: state.traffic.requests, filter: state.interface.filter).count == 2)
        #expect(EntryWindow(table: state.traffic.entries, interface: state.interface, rows: 10, now: 2).rows.map(\.instanceName) == ["web#2", "web#2"])
        state.apply(try Filter("instance:web"))
        #expect(RequestRows(log: state.traffic.requests, filter: state.interface.filter).count == 3, "`:` is contains: web and web#2")
        state.apply(nil)

        // Drill-down: the instance column is the last drill column in a fleet.
        _ = DashboardKeys.handle(.character("c"), state: &state)
        while state.drillColumnID != InstanceColumn.id { _ = DashboardKeys.handle(.character("c"), state: &state) }
        _ = DashboardKeys.handle(.character("+"), state: &state)
        #expect(state.interface.filter?.text == "instance=web#2")
    }

    @Test("a purge of the selected entry goes to its instance only; :purge sends each instance only its matching keys")
    func commandRouting() throws {
        var make = FleetEvents()
        var state = fleetState()
        for event in make.miss("GET http://example.com/a", id: 1, instance: 0) + make.miss("GET http://example.com/a", id: 1, instance: 2)
            + make.miss("GET http://example.com/b", id: 2, instance: 2) {
            state.apply(event)
        }
        _ = DashboardKeys.handle(.character("2"), state: &state)
        state.interface.entrySelection = EntryRowID(ref: EntryRef(key: "GET http://example.com/a"), instance: 2)
        let effects = DashboardKeys.handle(.character("d"), state: &state)
        #expect(effects.contains(.sendTo(.purge(key: "GET http://example.com/a"), instances: [2])))

        _ = try #require(state.askPurge(matching: try Filter("url:example.com")).first)
        guard case .confirmPurge(let preview) = state.interface.overlay else {
            Issue.record("no purge preview")
            return
        }
        #expect(preview.entries == 3)
        let sent = DashboardKeys.handle(.character("y"), state: &state)
        let a = "GET http://example.com/a", b = "GET http://example.com/b"
        #expect(sent == [.purgeEach([PurgeTarget(key: a, instance: 0): 1, PurgeTarget(key: a, instance: 2): 1, PurgeTarget(key: b, instance: 2): 1]), .redraw])

        _ = state.askPurge(matching: try Filter("instance:api"))
        let apiOnly = DashboardKeys.handle(.character("y"), state: &state)
        #expect(apiOnly == [.purgeEach([PurgeTarget(key: a, instance: 2): 1, PurgeTarget(key: b, instance: 2): 1]), .redraw])
    }

    @Test("--stats-every lines of a fleet add each instance's figures by name; one instance's lines have no such field")
    func intervalLines() throws {
        var make = FleetEvents()
        var intervals = try StatsIntervals(every: 5)
        intervals.nameInstances(["web", "api"])
        for event in make.miss("GET http://example.com/a", id: 1, instance: 0) + make.miss("GET http://example.com/a", id: 1, instance: 1)
            + make.hit("GET http://example.com/a", id: 2, instance: 1) {
            _ = intervals.apply(event)
        }
        let last = intervals.finish()
        let line = try #require(last)
        #expect(line.requests == 3)
        #expect(line.instances?.map(\.name) == ["web", "api"])
        #expect(line.instances?.map(\.requests) == [1, 2])
        #expect(line.instances?.map(\.hitRatio) == [0, 0.5])
        #expect(try line.jsonLine().contains("\"instances\":[{\"byteHitRatio\":0,\"bytesFromCache\":0,\"bytesFromNetwork\":100,\"hitRatio\":0,\"instance\":0,\"name\":\"web\""))

        var single = try StatsIntervals(every: 5)
        for event in make.miss("GET http://example.com/a", id: 1, instance: 0) { _ = single.apply(event) }
        let final = single.finish()
        let alone = try #require(final)
        #expect(alone.instances == nil)
        #expect(try !alone.jsonLine().contains("instances"))
    }

    @Test("a command's results from several instances: failures first, gone instances named as not told")
    func report() {
        let report = FleetCommandReport(command: .purgeAll, results: [
            .init(name: "web", result: CommandResult(succeeded: true, message: "purged 3 entries")),
            .init(name: "web#2", result: nil),
            .init(name: "api", result: CommandResult(succeeded: false, message: "failed: timed out")),
        ])
        #expect(!report.succeeded)
        #expect(report.message == "purgeAll: 2 of 3 instances failed — web#2: gone (not told) · api: failed: timed out · web: purged 3 entries")
        let fine = FleetCommandReport(command: .purgeAll, results: [.init(name: "web", result: CommandResult(succeeded: true, message: "purged 1 entry"))])
        #expect(fine.message == "purgeAll on 1 instance — web: purged 1 entry")
        #expect(FleetCommandReport(command: .purgeAll, results: []).message.contains("none is connected"))
    }
}
