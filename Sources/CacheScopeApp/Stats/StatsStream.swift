public import CacheEvents
public import Dashboard
import HTTPCaching
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `--stats-every SECONDS --json` on standard output: an ``IntervalStats`` line (NDJSON) each
/// time an interval of session time ends, and a last line (`"final":true`) when the command
/// ends.
///
/// Events decide the time (``StatsIntervals``); a live watcher also runs ``tick()`` every
/// interval so quiet intervals get their lines. Shared between the task that reads events and
/// the one that ticks, hence the `Mutex`. A write that fails (the reader of a pipe went away,
/// a full disk) stops the output, and ends the command as soon as it can (``failure``,
/// ``waitForFailure()``, ``checkWritten()``), with status 1 and the failure said: the lines
/// are all it was asked for.
public final class StatsStream: Sendable {
    private struct State {
        var intervals: StatsIntervals
        var failure: (any Error)?
        /// Who waits for a failure (``waitForFailure()``), resumed by it or by cancellation.
        var failureWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state: Mutex<State>
    private let started = ContinuousClock.now
    private let write: @Sendable (String) throws -> Void
    private let logger = Logger(label: "cachescope.stats")

    /// A stream of lines every `interval` seconds, written with `write` (standard output by default).
    /// - Throws: ``StatsIntervalError`` when `interval` is not a positive number.
    public init(every interval: Double, write: @escaping @Sendable (String) throws -> Void = { try Console.write($0) }) throws {
        state = Mutex(State(intervals: try StatsIntervals(every: interval)))
        self.write = write
    }

    /// The interval in seconds.
    public var interval: Double { state.withLock { $0.intervals.interval } }

    /// Seconds on this stream's own clock, which the session clock is learned against.
    private var wall: Double { (ContinuousClock.now - started).inSeconds }

    /// Adds a live event (the lines of the intervals it ends come first).
    public func apply(_ event: CacheEvent) {
        let wall = self.wall
        emit { $0.apply(event, wall: wall) }
    }

    /// Adds a recorded event: its time alone tells where the intervals end.
    public func applyRecorded(_ event: CacheEvent) {
        emit { $0.apply(event) }
    }

    /// Names a fleet's instances (`attach S1 S2 … --no-ui`): each line's `instances` field
    /// carries their names.
    public func nameInstances(_ names: [String]) {
        state.withLock { $0.intervals.nameInstances(names) }
    }

    /// Names a fleet's instances and ends the lives of those whose connection dropped
    /// (``StatsIntervals/setInstances(_:)``): their open requests leave `inFlight`.
    public func setInstances(_ roster: InstanceRoster) {
        state.withLock { $0.intervals.setInstances(roster) }
    }

    /// Writes the lines of the intervals that ended by now on the session clock, less the
    /// ``deliveryLag``.
    public func tick() {
        let wall = self.wall - Self.deliveryLag
        emit { $0.tick(wall: wall) }
    }

    /// How long after an interval's end the timer waits to write its line, in seconds: a
    /// subscription gets its events in batches, at most every `EventDelivery.batchingInterval`
    /// (20 ms), so an event stamped just before the end can arrive that much after it; the line
    /// waits for it, and a margin, so that it counts what a replay of the recording counts.
    static let deliveryLag = EventDelivery.batchingInterval.inSeconds + 0.03

    /// Writes the last line: at the session clock's now when `live`, else at the latest event.
    public func finish(live: Bool) {
        let wall = live ? self.wall : nil
        emit { intervals in intervals.finish(wall: wall).map { [$0] } ?? [] }
    }

    /// Why the lines could not be written, once a write failed; `nil` while they can.
    public var failure: (any Error)? { state.withLock { $0.failure } }

    /// Throws ``failure``, if a write failed: for a command to end with it. After SIGHUP
    /// (`signal`) the terminal the lines went to is gone: no failure then, as for a summary
    /// (`Console.writeSummary(_:endedBy:)`).
    public func checkWritten(endedBy signal: Int32? = nil) throws {
        guard signal != SIGHUP else { return }
        if let failure { throw failure }
    }

    /// Runs `work` until it returns or, with `stats`, until a write of its lines fails (then
    /// `work` is cancelled, and returns): the lines are the run's output.
    public static func run(_ work: @escaping @Sendable () async -> Void, endingOnFailureOf stats: StatsStream?) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await work() }
            if let stats { group.addTask { await stats.waitForFailure() } }
            await group.next()
            group.cancelAll()
        }
    }

    /// Calls ``tick()`` every interval until the task is cancelled or a write fails (the
    /// interval's line, or one an event ended).
    public func tickUntilCancelled() async {
        let period = Duration.milliseconds(Int64((interval * 1000).rounded(.up)))
        while !Task.isCancelled, failure == nil {
            do { try await Task.sleep(for: max(period, .milliseconds(1))) } catch { return }
            tick()
        }
    }

    /// Returns once a write has failed, or when the calling task is cancelled: for a command
    /// whose traffic would otherwise run on with nowhere to write.
    public func waitForFailure() async {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waiting = state.withLock { state in
                    guard state.failure == nil, !Task.isCancelled else { return false }
                    state.failureWaiters[id] = continuation
                    return true
                }
                if !waiting { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.failureWaiters.removeValue(forKey: id) }?.resume()
        }
    }

    private func emit(_ body: (inout StatsIntervals) -> [IntervalStats]) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            let lines = body(&state.intervals)
            guard state.failure == nil else { return [] }
            do {
                for line in lines { try write(try line.jsonLine()) }
                return []
            } catch {
                state.failure = error
                logger.error("stats output stopped", metadata: ["error": "\(error)"])
                defer { state.failureWaiters.removeAll() }
                return Array(state.failureWaiters.values)
            }
        }
        for waiter in waiters { waiter.resume() }
    }
}
