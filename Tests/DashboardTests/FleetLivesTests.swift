import CacheEvents
import CacheStore
import HTTPCaching
import HTTPTypes
import SessionLog
import TerminalUI
import Testing
@testable import Dashboard

/// What a fleet dashboard does when an instance goes away or comes back as a new process, what
/// its marks and multi-key purges name, and how its store figures add up.
@Suite("A fleet's instances going and coming back")
struct FleetLivesTests {
    static let roster = FleetFixture.roster("web", "api")

    private func fleetState() -> DashboardState { FleetFixture.state(Self.roster) }

    private func started(_ make: inout FleetEvents, id: UInt64, instance: UInt16, path: String) -> CacheEvent {
        make.event(.requestStarted(RequestStarted(
            method: "GET", url: "http://example.com\(path)", cacheKey: "GET http://example.com\(path)", policy: "protocol", headers: [:])),
            instance: instance, request: id)
    }

    private func rows(_ state: DashboardState) -> [RequestRecord] {
        let log = state.traffic.requests
        guard let oldest = log.oldestSerial, let newest = log.newestSerial else { return [] }
        return (oldest...newest).compactMap { log[serial: $0] }
    }

    @Test("an end told late, after the next life's events are folded, cuts off only the old life's requests, and the instance is not gone")
    func lateEndSparesTheNextLife() throws {
        var make = FleetEvents()
        var state = fleetState()
        state.apply(started(&make, id: 5, instance: 1, path: "/old"))  // seq 1: the old life's
        state.apply(make.event(.storeStats(StoreStats(memoryUsed: 10, memoryCapacity: 100, diskUsed: 0, diskCapacity: 0, entryCount: 1)),
                               instance: 1))  // seq 2
        state.apply(started(&make, id: 1, instance: 1, path: "/new"))  // seq 3: the new life's, IDs start again
        #expect(state.traffic.requests.openCount == 2)

        var roster = Self.roster
        roster.instances[1].connected = false
        roster.instances[1].goneAfter = 2  // the old life ended after seq 2; the notice comes only now
        state.setInstances(roster)
        #expect(state.traffic.requests.openCount == 1)
        #expect(rows(state).first { $0.url.hasSuffix("/old") }?.isCutOff == true)
        #expect(rows(state).first { $0.url.hasSuffix("/new") }?.isCutOff == false, "the next life's request stays in flight")
        #expect(state.traffic.perInstance[1].gone == false, "it has sent events since: its store still counts")
        #expect(state.traffic.store?.memoryUsed == 10)
        _ = DashboardKeys.handle(.character("3"), state: &state)
        let stats = try render(state, size: TerminalSize(columns: 120, rows: 60), now: 2).text
        #expect(!stats.contains("gone: last known figures"), "the total still counts its entries, and says nothing else")
    }

    @Test("a new life's request with the ID of one the old life left open is its own: the late end cuts off only the old one")
    func sameIDInTwoLives() throws {
        var make = FleetEvents()
        var state = fleetState()
        state.apply(started(&make, id: 1, instance: 1, path: "/old"))  // seq 1: the old life's request 1, never finished
        state.apply(started(&make, id: 1, instance: 1, path: "/new"))  // seq 2: the new life's request 1 (IDs start again)
        state.apply(make.event(.lookup(Lookup(verdict: .miss, reason: "not in cache")), instance: 1, request: 1))  // seq 3
        #expect(state.traffic.requests.openCount == 2, "both are open until the old life's end is applied")

        var roster = Self.roster
        roster.instances[1].connected = false
        roster.instances[1].goneAfter = 1  // the old life ended after seq 1; the notice comes only now
        state.setInstances(roster)
        let old = try #require(rows(state).first { $0.url.hasSuffix("/old") })
        let new = try #require(rows(state).first { $0.url.hasSuffix("/new") })
        #expect(old.isCutOff, "the old life's request is cut off when its life's end arrives")
        #expect(old.lookup == nil, "the new life's events never reached it")
        #expect(!new.isCutOff)
        #expect(new.lookup?.verdict == .miss)
        #expect(state.traffic.requests.openCount == 1)
        let grid = try render(state, size: TerminalSize(columns: 120, rows: 30), now: 2).text
        #expect(grid.split(separator: "\n").contains { $0.contains("/old") && $0.contains("✂ CUT OFF") }, "\(grid)")
        #expect(grid.split(separator: "\n").contains { $0.contains("/new") && !$0.contains("CUT OFF") }, "\(grid)")

        state.apply(make.event(.requestFinished(RequestFinished(
            status: 200, latency: 0.01, bytesFromNetwork: 10, bytesFromCache: 0, outcome: .miss, reason: "not in cache")),
            instance: 1, request: 1))
        #expect(rows(state).first { $0.url.hasSuffix("/new") }?.isFinished == true)
        #expect(rows(state).first { $0.url.hasSuffix("/old") }?.isFinished == false)
        #expect(state.traffic.requests.openCount == 0)
    }

    @Test("an instance that goes away cuts its open requests off once the events before the drop are folded; a new life's requests are its own")
    func goneCutsOffOpenRequests() throws {
        var make = FleetEvents()
        var state = fleetState()
        state.apply(started(&make, id: 5, instance: 1, path: "/slow"))  // seq 1
        state.apply(started(&make, id: 5, instance: 0, path: "/busy"))  // seq 2
        #expect(state.traffic.requests.openCount == 2)

        // api drops after seq 3, which is still on its way to the dashboard.
        var roster = Self.roster
        roster.instances[1].connected = false
        roster.instances[1].goneAfter = 3
        state.setInstances(roster)
        #expect(state.traffic.requests.openCount == 2, "the events before the drop are not folded yet")
        state.apply(make.event(.lookup(Lookup(verdict: .miss, reason: "not in cache")), instance: 1, request: 5))  // seq 3
        #expect(state.traffic.requests.openCount == 1, "api's request is no longer in flight; web's is")
        let cut = try #require(rows(state).first { $0.instance == 1 })
        #expect(cut.isCutOff)
        #expect(cut.lookup?.verdict == .miss, "the last event before the drop was folded first")
        #expect(rows(state).first { $0.instance == 0 }?.isCutOff == false)

        let grid = try render(state, size: TerminalSize(columns: 120, rows: 30), now: 2).text
        #expect(grid.split(separator: "\n").contains { $0.contains("/slow") && $0.contains("✂ CUT OFF") }, "\(grid)")
        #expect(grid.split(separator: "\n").contains { $0.contains("/busy") && $0.contains("… ") && !$0.contains("CUT OFF") })
        _ = DashboardKeys.handle(.character("3"), state: &state)
        let stats = try render(state, size: TerminalSize(columns: 120, rows: 60), now: 2).text
        #expect(stats.split(separator: "\n").contains { $0.contains("in flight") && $0.contains(" 1 ") }, "\(stats)")

        // api comes back as a new process: request IDs start again, and its request 5 is a new row.
        roster.instances[1].connected = true
        roster.instances[1].pid = 99
        state.setInstances(roster)
        state.apply(started(&make, id: 5, instance: 1, path: "/again"))
        state.apply(make.event(.requestFinished(RequestFinished(
            status: 200, latency: 0.01, bytesFromNetwork: 10, bytesFromCache: 0, outcome: .miss, reason: "not in cache")),
            instance: 1, request: 5))
        let api = rows(state).filter { $0.instance == 1 }
        #expect(api.map(\.url) == ["http://example.com/slow", "http://example.com/again"])
        #expect(api.map(\.isCutOff) == [true, false])
        #expect(api[1].isFinished)
        #expect(state.traffic.requests.openCount == 1)
    }

    @Test("a rewound view cuts the gone instance's requests off at the same event as the live one")
    func rewindAgrees() throws {
        var make = FleetEvents()
        var history = RewindHistory(capacity: 100)
        var state = fleetState()
        let first = started(&make, id: 1, instance: 1, path: "/a")
        history.append(first, after: state.traffic)
        state.apply(first)
        var roster = Self.roster
        roster.instances[1].connected = false
        roster.instances[1].goneAfter = 1
        state.setInstances(roster)
        history.endLife(of: 1, after: 1)
        let later = make.event(.storeStats(StoreStats(memoryUsed: 1, memoryCapacity: 10, diskUsed: 0, diskCapacity: 0, entryCount: 0)), instance: 0)
        history.append(later, after: state.traffic)
        state.apply(later)
        var replayer = history.replayer()
        replayer.seekToEnd()
        #expect(replayer.state.requests.openCount == 0)
        #expect(state.traffic.requests.openCount == 0)
    }

    @Test("a gone instance's store is its last known one, left out of the fleet's total until it sends events again")
    func goneStoreLeftOutOfTotal() {
        var make = FleetEvents()
        var state = fleetState()
        state.apply(make.event(.storeStats(StoreStats(memoryUsed: 100, memoryCapacity: 1000, diskUsed: 0, diskCapacity: 0, entryCount: 1)), instance: 0))
        state.apply(make.event(.storeStats(StoreStats(memoryUsed: 50, memoryCapacity: 1000, diskUsed: 5, diskCapacity: 10, entryCount: 2)), instance: 1))
        #expect(state.traffic.store?.memoryUsed == 150)

        var roster = Self.roster
        roster.instances[1].connected = false
        roster.instances[1].goneAfter = make.seq
        state.setInstances(roster)
        #expect(state.traffic.store?.memoryUsed == 100, "the total is what the connected instances store now")
        #expect(state.traffic.store?.memoryCapacity == 1000)
        #expect(state.traffic.store?.entryCount == 1)
        #expect(state.traffic.perInstance[1].store?.memoryUsed == 50, "its own figures stay, as last known")
        #expect(state.traffic.perInstance[1].gone)

        // Back: its snapshot's figures count again.
        roster.instances[1].connected = true
        state.setInstances(roster)
        state.apply(make.event(.storeStats(StoreStats(memoryUsed: 70, memoryCapacity: 1000, diskUsed: 0, diskCapacity: 10, entryCount: 3)), instance: 1))
        #expect(state.traffic.store?.memoryUsed == 170)
        #expect(state.traffic.perInstance[1].gone == false)
    }

    @Test("around a drop and a reconnect the header's (N gone) and its totals follow the same word: never one without the other")
    func headerGoneAgreesWithTotals() throws {
        var make = FleetEvents()
        var state = fleetState()
        func stats(_ entries: Int) -> CacheEventKind {
            .storeStats(StoreStats(memoryUsed: entries * 10, memoryCapacity: 1000, diskUsed: 0, diskCapacity: 0, entryCount: entries))
        }
        /// The header's `(N gone)` and its `entries` gauge, as drawn.
        func header() throws -> (gone: Bool, entries: String) {
            let lines = try render(state, size: TerminalSize(columns: 160, rows: 40), now: 2).text.split(separator: "\n").prefix(4)
            let words = lines.flatMap { $0.split(separator: " ") }
            let entries = words.firstIndex(of: "entries").flatMap { words.indices.contains($0 + 1) ? String(words[$0 + 1]) : nil }
            return (lines.contains { $0.contains("(1 gone)") }, entries ?? "")
        }
        state.apply(make.event(stats(2), instance: 0))
        state.apply(make.event(stats(3), instance: 1))  // seq 2
        #expect(try header() == (false, "5"))

        // api drops after seq 3, which is still on its way: the total still counts it, so the
        // header does not call it gone yet.
        var roster = Self.roster
        roster.instances[1].connected = false
        roster.instances[1].goneAfter = 3
        state.setInstances(roster)
        #expect(try header() == (false, "5"))
        state.apply(make.event(stats(4), instance: 1))  // seq 3: its last event before the drop
        #expect(try header() == (true, "2"))

        // It reconnects: until its first event the total leaves it out, and the header says so.
        roster.instances[1].connected = true
        state.setInstances(roster)
        #expect(try header() == (true, "2"))
        state.apply(make.event(stats(1), instance: 1))  // its snapshot of the store as it is now
        #expect(try header() == (false, "3"))
    }

    @Test("the Stats view's total leaves a gone instance's entries and bytes out and says so")
    func breakdownTotal() throws {
        var make = FleetEvents()
        var state = fleetState()
        for event in make.miss("GET http://example.com/a", id: 1, instance: 0) + make.miss("GET http://example.com/b", id: 1, instance: 1, size: 300) {
            state.apply(event)
        }
        var roster = Self.roster
        roster.instances[1].connected = false
        roster.instances[1].goneAfter = make.seq
        state.setInstances(roster)
        let lines = InstanceBreakdown.figures(state.traffic, roster: roster)
        #expect(lines.map(\.name) == ["web", "api", "total"])
        #expect(lines.map(\.entries) == [1, 1, 1])
        #expect(lines.map(\.bytes) == [100, 300, 100])
        #expect(lines.map(\.requests) == [1, 1, 2], "requests that happened stay counted")
        _ = DashboardKeys.handle(.character("3"), state: &state)
        let stats = try render(state, size: TerminalSize(columns: 120, rows: 60), now: 2).text
        #expect(stats.contains("gone: last known figures"))
    }

    @Test("--stats-every lines of a fleet stop counting a gone instance's open requests in flight")
    func statsLinesCutOff() throws {
        var make = FleetEvents()
        var intervals = try StatsIntervals(every: 5)
        intervals.setInstances(Self.roster)
        _ = intervals.apply(started(&make, id: 1, instance: 0, path: "/a"))
        _ = intervals.apply(started(&make, id: 1, instance: 1, path: "/b"))
        var roster = Self.roster
        roster.instances[1].connected = false
        roster.instances[1].goneAfter = make.seq
        intervals.setInstances(roster)
        let final = intervals.finish()
        let last = try #require(final)
        #expect(last.inFlight == 1)
    }

    @Test("StoreStats add every figure, degraded namespaces included")
    func storeStatsAdd() {
        let a = StoreStats(memoryUsed: 1, memoryCapacity: 2, diskUsed: 3, diskCapacity: 4, entryCount: 5, memoryEntryCount: 6,
                           diskEntryCount: 7, degradedNamespaces: ["x"])
        let b = StoreStats(memoryUsed: 10, memoryCapacity: 20, diskUsed: 30, diskCapacity: 40, entryCount: 50, memoryEntryCount: 60,
                           diskEntryCount: 70, degradedNamespaces: ["y"])
        #expect(a + b == StoreStats(memoryUsed: 11, memoryCapacity: 22, diskUsed: 33, diskCapacity: 44, entryCount: 55,
                                    memoryEntryCount: 66, diskEntryCount: 77, degradedNamespaces: ["x", "y"]))
        #expect(StoreStats.zero + a == a)
        #expect(InstanceFigures.total([InstanceFigures(store: a), InstanceFigures(), InstanceFigures(store: b)]) == a + b)
    }
}
