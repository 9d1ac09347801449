public import CacheEvents

/// Folds events into a ``TrafficModel`` and hands out an ``IntervalStats`` each time session
/// time passes a multiple of the interval: `--stats-every SECONDS --json`.
///
/// Interval ends are multiples of the interval in session seconds (5, 10, 15, … for 5), so a
/// replay of a log gives the same lines as the live run that recorded it. A line at an end
/// counts every event stamped before it. Events tell the time in a replay; a live watcher also
/// calls ``tick(wall:)`` so quiet intervals get their lines too, on a session clock learned
/// from the events (as the dashboard's).
///
/// ```swift
/// var intervals = try StatsIntervals(every: 5)
/// var ndjson = ""   // headless commands hand these lines to `StatsStream`, never the dashboard's terminal
/// for event in events { for line in intervals.apply(event) { ndjson += try line.jsonLine() } }
/// if let last = intervals.finish() { ndjson += try last.jsonLine() }
/// ```
public struct StatsIntervals: Sendable {
    /// The interval in seconds.
    public let interval: Double
    /// The traffic so far.
    public private(set) var model = TrafficModel()

    /// Names a fleet's instances, for the `instances` field of the lines.
    public mutating func nameInstances(_ names: [String]) {
        model.nameInstances(names)
    }

    /// Names a fleet's instances and, for each whose connection dropped since the last roster,
    /// ends its life as the dashboard does (``TrafficModel/endLife(of:after:)``): its open
    /// requests leave `inFlight` and its store leaves the totals.
    public mutating func setInstances(_ roster: InstanceRoster) {
        let ended = self.roster.livesEnded(in: roster)
        self.roster = roster
        model.nameInstances(roster.names)
        for end in ended { model.endLife(of: end.instance, after: end.afterSeq) }
    }
    /// The roster last set (``setInstances(_:)``).
    private var roster = InstanceRoster()
    /// The end of the interval in progress, once the first event set it.
    private var nextEnd: Double?
    /// Requests finished when the previous line was made.
    private var requestsAtLastLine = 0
    private var clock = SessionClock()

    /// The shortest interval: 10 ms (a line per event would be a log, and ever smaller steps
    /// stop advancing a session clock of large values).
    public static let shortestInterval = 0.01
    /// The longest interval: a year.
    public static let longestInterval = 365 * 86_400.0

    /// Lines every `interval` seconds of session time.
    /// - Throws: ``StatsIntervalError`` when `interval` is not a number of seconds from
    ///   ``shortestInterval`` to ``longestInterval``.
    public init(every interval: Double) throws(StatsIntervalError) {
        guard interval.isFinite, interval > 0 else { throw .notPositive(interval) }
        guard interval >= Self.shortestInterval, interval <= Self.longestInterval else { throw .outOfRange(interval) }
        self.interval = interval
    }

    /// Adds one event, first making the lines of the intervals that ended before its time.
    /// `wall` (seconds on the watcher's own clock) teaches ``tick(wall:)`` the session clock.
    public mutating func apply(_ event: CacheEvent, wall: Double? = nil) -> [IntervalStats] {
        if let wall { clock.observe(eventTime: event.time, wall: wall) }
        let lines = lines(before: event.time)
        if nextEnd == nil { nextEnd = end(after: event.time) }
        model.apply(event)
        return lines
    }

    /// The lines of the intervals that ended by `wall` on the session clock (a live watcher's
    /// quiet periods); none before the first event.
    public mutating func tick(wall: Double) -> [IntervalStats] {
        lines(before: clock.now(wall: wall))
    }

    /// The last line, for the interval in progress when the command ends: at `wall` on the
    /// session clock when given, else at the latest event's time; at 0 when no event came.
    public mutating func finish(wall: Double? = nil) -> IntervalStats? {
        // No event at all (a log of only its header): one line of zeros at 0, so a script
        // reading the last line still gets one.
        guard nextEnd != nil else { return line(at: 0, final: true) }
        let time = max(model.clock, wall.map { clock.now(wall: $0) } ?? model.clock)
        return line(at: time, final: true)
    }

    // MARK: Lines

    /// The first interval end strictly after `time`.
    private func end(after time: Double) -> Double {
        ((time / interval).rounded(.down) + 1) * interval
    }

    private mutating func lines(before time: Double) -> [IntervalStats] {
        var lines: [IntervalStats] = []
        while let end = nextEnd, end <= time {
            lines.append(line(at: end, final: false))
            nextEnd = end + interval
            // A quiet stretch of more intervals than a line each would be worth, ended by one
            // event (a log with a gap of hours, read at 10 ms): its lines would all be alike,
            // so the rest of it is passed over to its last end, which gets the one line more.
            // Live, `tick` ends each interval as it passes, so every line is written.
            if lines.count == Self.longestQuietRun, let next = nextEnd, next <= time {
                var last = next + ((time - next) / interval).rounded(.down) * interval
                if last > time { last -= interval }  // rounding can put it a hair past `time`
                if last > next { nextEnd = last }
            }
        }
        return lines
    }

    /// The most lines one quiet stretch gets (see ``lines(before:)``): the stretch's first
    /// 10,000 intervals and its last.
    static let longestQuietRun = 10_000

    private mutating func line(at time: Double, final: Bool) -> IntervalStats {
        let requests = model.counters.requests
        defer { requestsAtLastLine = requests }
        return IntervalStats(model, time: time, interval: interval, intervalRequests: requests - requestsAtLastLine, final: final)
    }
}

/// Why an interval was refused.
public enum StatsIntervalError: Error, CustomStringConvertible, Sendable, Hashable {
    /// Zero, negative, infinite or not a number.
    case notPositive(Double)
    /// Shorter than ``StatsIntervals/shortestInterval`` or longer than ``StatsIntervals/longestInterval``.
    case outOfRange(Double)

    /// What was wrong and what to give instead.
    public var description: String {
        switch self {
        case .notPositive(let value): "--stats-every must be a positive number of seconds (e.g. 1 or 0.5), not \(value)"
        case .outOfRange(let value):
            "--stats-every must be from \(StatsIntervals.shortestInterval) to \(Int(StatsIntervals.longestInterval)) seconds (a year), not \(value)"
        }
    }
}
