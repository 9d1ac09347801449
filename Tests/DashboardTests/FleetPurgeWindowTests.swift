import CacheEvents
import Synchronization
import Testing
import TerminalUI
@testable import Dashboard

/// A fleet purge of many marked keys goes out through a bounded window: at most
/// `CommandWindow.perInstance` commands in flight at an instance and `total` in all, the
/// instances taking slots in turn, a hung instance's waiting keys failed unsent, and one
/// report for all.
@Suite("A fleet purge's command window", .timeLimit(.minutes(1)))
struct FleetPurgeWindowTests {
    /// Counts the commands in flight at each instance (and in all) and the most there ever were.
    final class Concurrency: Sendable {
        private struct Counts {
            var now: [UInt16: Int] = [:]
            var most: [UInt16: Int] = [:]
            var nowInAll = 0
            var mostInAll = 0
            var calls = 0
            var starts: [UInt16] = []
        }
        private let counts = Mutex(Counts())

        /// One command at `instance`: in flight for a few milliseconds.
        func send(_ command: ClientCommand, to instance: UInt16, failing: Bool = false) async -> CommandResult {
            counts.withLock { counts in
                counts.calls += 1
                counts.starts.append(instance)
                counts.now[instance, default: 0] += 1
                counts.most[instance] = max(counts.most[instance] ?? 0, counts.now[instance, default: 0])
                counts.nowInAll += 1
                counts.mostInAll = max(counts.mostInAll, counts.nowInAll)
            }
            try? await Task.sleep(for: .milliseconds(3))
            counts.withLock { counts in
                counts.now[instance, default: 0] -= 1
                counts.nowInAll -= 1
            }
            return failing ? CommandResult(succeeded: false, message: "failed: timed out")
                : CommandResult(succeeded: true, message: "purged 1 entry")
        }

        var most: [UInt16: Int] { counts.withLock { $0.most } }
        var mostInAll: Int { counts.withLock { $0.mostInAll } }
        var calls: Int { counts.withLock { $0.calls } }
        /// The instance of each command, in the order they started.
        var starts: [UInt16] { counts.withLock { $0.starts } }

        /// Counts a command to `instance` that sends nothing (a hung instance's).
        func record(_ instance: UInt16) {
            counts.withLock { counts in
                counts.calls += 1
                counts.starts.append(instance)
            }
        }

        /// How many commands went to `instance`.
        func sent(to instance: UInt16) -> Int { counts.withLock { $0.starts.count { $0 == instance } } }
    }

    /// `GET http://example.com/k00` … `k49`.
    private static let keys = (0..<50).map { "GET http://example.com/k" + ($0 < 10 ? "0\($0)" : "\($0)") }

    /// Every key in both instances, one entry each.
    private static let everyTarget = Dictionary(
        uniqueKeysWithValues: keys.flatMap { key in [UInt16(0), 1].map { (PurgeTarget(key: key, instance: $0), 1) } })

    /// A fleet dashboard of `web` and `api` whose commands go to `commands`.
    private static func app(commands: @escaping InstanceCommandSender) throws -> DashboardApp {
        DashboardApp.fleet(
            roster: FleetFixture.roster("web", "api"), events: AsyncStream<CacheEvent> { $0.finish() }, commands: commands,
            theme: try ThemeLoader.builtIn(named: "mono"), rewindEvents: 0)
    }

    @Test("50 marked keys on 2 instances: never more than the window in flight at an instance or in all, all 100 results in one report, in order")
    func fiftyKeysOnTwoInstances() async throws {
        let concurrency = Concurrency()
        let first = try #require(Self.keys.first), last = try #require(Self.keys.last)
        let app = try Self.app { command, instance in
            // One failure in each instance, to see the report keep the order of keys, then instances.
            let failing = (instance == 0 && command.key == last) || (instance == 1 && command.key == first)
            return await concurrency.send(command, to: instance, failing: failing)
        }
        let targets = Self.everyTarget

        // A total below 2 × perInstance, so that it is the total that holds them back.
        let window = CommandWindow(perInstance: 8, total: 12)
        app.purge(targets, window: window, redraw: {})
        #expect(await eventually { app.snapshot.interface.status?.text.hasPrefix("purge: ") == true })
        #expect(concurrency.calls == 100)
        #expect(concurrency.most[0].map { $0 <= window.perInstance } == true, "\(concurrency.most)")
        #expect(concurrency.most[1].map { $0 <= window.perInstance } == true, "\(concurrency.most)")
        #expect(concurrency.mostInAll <= window.total, "\(concurrency.mostInAll) in flight in all")
        #expect(app.snapshot.interface.status == StatusMessage(
            "purge: 2 of 100 failed — api: failed: timed out (\(first)) · web: failed: timed out (\(last))"
                + " — purged 98 entries on 2 instances (50 keys)", kind: .failure))
    }

    @Test("the window keeps each instance to its limit and all of them to the total, and returns results in the jobs' order")
    func windowLimits() async {
        let concurrency = Concurrency()
        let window = CommandWindow(perInstance: 3, total: 10)
        // Six instances with twelve commands each, listed instance by instance.
        let jobs = (0..<72).map { index in
            let instance = UInt16(index / 12)
            return CommandWindow.Job(instance: instance, failed: { _ in -1 }) { () -> Int in
                _ = await concurrency.send(.purge(key: "k\(index)"), to: instance)
                return index
            }
        }
        let results = await window.run(jobs)
        #expect(results == Array(0..<72))
        #expect(concurrency.most.values.allSatisfy { $0 <= 3 }, "\(concurrency.most)")
        #expect(concurrency.mostInAll <= 10)
        #expect(concurrency.mostInAll > 3, "more than one instance's commands are in flight at once")
        #expect(await window.run([CommandWindow.Job<Int>]()).isEmpty)
    }

    @Test("with more instances than the total has room for at perInstance each, slots go round: no instance waits for the first ones to finish")
    func instancesTakeTurns() async {
        let concurrency = Concurrency()
        // 6 × 8 = 48 > 32: the total is the limit, and the instances must share it.
        let window = CommandWindow(perInstance: 8, total: 32)
        let perInstanceJobs = 40
        // Listed instance by instance, as a purge lists its keys.
        let jobs = (0..<(6 * perInstanceJobs)).map { index in
            let instance = UInt16(index / perInstanceJobs)
            return CommandWindow.Job(instance: instance, failed: { _ in -1 }) { () -> Int in
                _ = await concurrency.send(.purge(key: "k\(index)"), to: instance)
                return index
            }
        }
        #expect(await window.run(jobs) == Array(0..<(6 * perInstanceJobs)))
        // When the first instance has had its last command started, every instance has had
        // most of its own started (taking turns, all but about one; rescanning from the first
        // instance for each free slot left instances 4 and 5 at their first 5 or 6).
        let starts = concurrency.starts
        var started: [UInt16: Int] = [:]
        for instance in starts {
            started[instance, default: 0] += 1
            if started[instance] == perInstanceJobs { break }
        }
        let fewest = (0..<6).map { started[UInt16($0), default: 0] }
        #expect(fewest.allSatisfy { $0 >= perInstanceJobs / 2 }, "commands started per instance when one had all started: \(fewest)")
        #expect(concurrency.mostInAll <= window.total)
        #expect(concurrency.most.values.allSatisfy { $0 <= window.perInstance }, "\(concurrency.most)")
    }

    /// What a hung instance's send throws: no answer within its timeout.
    struct NoAnswer: Error, CustomStringConvertible {
        var description: String { "no answer to purge within 30 s" }
    }

    @Test("an instance that does not answer: its keys not sent yet fail at once with the same reason, unsent; the other instance's are all sent")
    func hungInstanceGivesUp() async throws {
        let concurrency = Concurrency()
        let app = try Self.app { command, instance in
            guard instance == 1 else { return await concurrency.send(command, to: instance) }
            // api is connected but hung: each send waits out its timeout (here 200 ms), then throws.
            concurrency.record(instance)
            try? await Task.sleep(for: .milliseconds(200))
            throw NoAnswer()
        }
        let targets = Self.everyTarget

        let window = CommandWindow(perInstance: 4, total: 32)
        app.purge(targets, window: window, redraw: {})
        #expect(await eventually { app.snapshot.interface.status?.text.hasPrefix("purge: ") == true })
        #expect(concurrency.sent(to: 0) == 50, "web is told every key")
        #expect(concurrency.sent(to: 1) == window.perInstance, "api is sent only its first \(window.perInstance) keys; the other 46 are not sent")
        #expect(app.snapshot.interface.status == StatusMessage(
            "purge: 50 of 100 failed — api: failed: no answer to purge within 30 s (50 keys) — purged 50 entries on 1 instance (50 keys)",
            kind: .failure))
    }

    /// `D` and `e` went to the connected instances only, and said "✓ purgeAll on 2 instances"
    /// with a third gone and its entries untouched.
    @Test("a command to every instance (D, e) names a gone one, and one never reached, as not told, and fails for them")
    func everyInstanceWithOneGone() async throws {
        let concurrency = Concurrency()
        var roster = FleetFixture.roster("web", "api", "db", "cache")
        roster.instances[1].connected = false
        roster.instances[3].connected = false
        roster.instances[3].pid = 0  // never reached: no hello yet
        let app = DashboardApp.fleet(
            roster: roster, events: AsyncStream<CacheEvent> { $0.finish() },
            commands: { command, instance in await concurrency.send(command, to: instance) },
            theme: try ThemeLoader.builtIn(named: "mono"), rewindEvents: 0)
        let reported = AsyncStream<Void>.makeStream()
        app.send(.purgeAll, to: nil, redraw: { reported.continuation.yield() })
        for await _ in reported.stream { break }
        #expect(app.snapshot.interface.status?.text
            == "purgeAll: 2 of 4 instances failed — api: gone (not told) · cache: not reached yet (not told) · web: purged 1 entry · db: purged 1 entry")
        #expect(concurrency.sent(to: 1) == 0 && concurrency.sent(to: 3) == 0 && concurrency.sent(to: 0) == 1 && concurrency.sent(to: 2) == 1)
    }
}
