public import CacheEvents
/// Plays a recorded session into a folded state: the engine behind `cachescope replay`.
/// Generic over the state, so the dashboard folds its `DashboardState` and the summary
/// folds ``TrafficCounters`` through the same code.
///
/// The replayer owns the events, a **position** (how many events are applied) and a
/// **playhead time** (session seconds). It has no clock: the UI's loop calls
/// ``advance(byWallSeconds:)`` with the wall time that passed, and the replayer moves the
/// playhead by that times the ``speed``, applying the events passed.
///
/// ```swift
/// var replay = SessionReplayer<TrafficCounters>(log: try SessionLogReader.load("capture.jsonl"))
/// replay.play()
/// while !replay.isAtEnd {
///     let passed = replay.advance(byWallSeconds: 1.0 / 30)   // one frame
///     render(replay.state, recent: passed)
/// }
/// replay.seek(toFraction: 0.5)    // key 5
/// ```
///
/// **Seeking** rebuilds the state from the nearest checkpoint at or before the target — a
/// copy of the state kept every ``checkpointInterval`` events — never from the start, so a
/// seek folds at most `checkpointInterval` events (50,000 by default: tens of milliseconds).
/// Creating a replayer folds the whole log once to take the checkpoints.
///
/// **Invariant**: ``state`` is always the fold of `events[0..<position]`, so the state after
/// seeking to a time equals the state after playing to it.
public struct SessionReplayer<State: EventFolding>: Sendable {
    /// The events, in order, with times that never decrease.
    public let events: [CacheEvent]
    /// The fold of `events[0..<position]`.
    public internal(set) var state: State
    /// How many events are applied.
    public internal(set) var position = 0
    /// The playhead, in session seconds (between ``startTime`` and ``endTime``).
    public internal(set) var time: Double
    /// How fast ``advance(byWallSeconds:)`` moves. Default 1×.
    public var speed: ReplaySpeed
    /// Whether ``advance(byWallSeconds:)`` moves at all.
    public internal(set) var isPlaying = false
    /// Events between checkpoints.
    public let checkpointInterval: Int
    /// At ``ReplaySpeed/unlimited``: events applied per wall-clock second passed to
    /// ``advance(byWallSeconds:)``. Default 2,000,000 (about 66,000 per frame at 30 fps).
    public var unlimitedEventsPerSecond: Int = 2_000_000
    /// `checkpoints[k]` is the fold of `events[0..<k * checkpointInterval]`.
    var checkpoints: [State]

    /// The default checkpoint spacing: 50,000 events.
    public static var defaultCheckpointInterval: Int { 50_000 }
    /// The most checkpoints kept by default (longer logs space them further apart): 64.
    public static var maximumCheckpoints: Int { 64 }

    /// A replayer over `events` (times that go backwards are clamped), positioned before the
    /// first event and paused.
    /// - Parameters:
    ///   - checkpointInterval: events between state copies; by default 50,000, or more for
    ///     logs over 3.2 million events so at most 64 copies are kept.
    ///   - initial: the state before the first event (default: empty), e.g. the fold of what
    ///     came before a live dashboard's recent history.
    public init(events: [CacheEvent], checkpointInterval: Int? = nil, speed: ReplaySpeed = .realTime, initial: State = State()) {
        let events = Self.nonDecreasing(events)
        let interval = max(1, checkpointInterval ?? max(Self.defaultCheckpointInterval, (events.count + Self.maximumCheckpoints - 1) / Self.maximumCheckpoints))
        self.events = events
        self.checkpointInterval = interval
        self.speed = speed
        time = events.first?.time ?? 0
        state = initial
        // Take the checkpoints in one pass over the whole log.
        var checkpoints: [State] = []
        checkpoints.reserveCapacity(events.count / interval + 1)
        var running = initial
        for index in events.indices {
            if index % interval == 0 { checkpoints.append(running) }
            running.apply(events[index])
        }
        if events.count % interval == 0 { checkpoints.append(running) }
        self.checkpoints = checkpoints
    }

    /// A replayer over `events` whose checkpoints were taken as the events arrived — a live
    /// dashboard's recent history keeps the states it had anyway — so nothing is folded here.
    /// `checkpoints[k]` must be the fold of `events[0..<k * checkpointInterval]`; the first (the
    /// state before the first event) is required, later ones may be left off.
    package init(events: [CacheEvent], checkpoints: [State], checkpointInterval: Int, speed: ReplaySpeed = .realTime) {
        precondition(!checkpoints.isEmpty, "the state before the first event is required")
        self.events = Self.nonDecreasing(events)
        self.checkpointInterval = max(1, checkpointInterval)
        self.speed = speed
        time = self.events.first?.time ?? 0
        state = checkpoints[0]
        self.checkpoints = Array(checkpoints.prefix(self.events.count / self.checkpointInterval + 1))
    }

    /// `events` with each time raised to at least the one before, so the playhead never goes back.
    private static func nonDecreasing(_ events: [CacheEvent]) -> [CacheEvent] {
        var events = events
        if !events.isEmpty {
            for index in 1..<events.count where events[index].time < events[index - 1].time {
                events[index].time = events[index - 1].time
            }
        }
        return events
    }

    /// A replayer over a loaded log's events.
    public init(log: SessionLog, checkpointInterval: Int? = nil, speed: ReplaySpeed = .realTime) {
        self.init(events: log.events, checkpointInterval: checkpointInterval, speed: speed)
    }

    // MARK: Where we are

    /// The first event's time (0 without events).
    public var startTime: Double { events.first?.time ?? 0 }
    /// The last event's time (0 without events).
    public var endTime: Double { events.last?.time ?? 0 }
    /// Whether every event is applied.
    public var isAtEnd: Bool { position == events.count }
    /// How far the playhead is through the session's time span (0…1; 1 when it is empty).
    public var progress: Double {
        let span = endTime - startTime
        return span > 0 ? (time - startTime) / span : (isAtEnd ? 1 : 0)
    }
    /// The last event applied, if any.
    public var lastEvent: CacheEvent? { position > 0 ? events[position - 1] : nil }

    // MARK: Playing

    /// Starts playing (from the start again when at the end).
    public mutating func play() {
        if isAtEnd, !events.isEmpty { seek(toPosition: 0) }
        isPlaying = true
    }

    /// Pauses.
    public mutating func pause() { isPlaying = false }

    /// Plays when paused, pauses when playing (`Space`).
    public mutating func togglePlaying() {
        if isPlaying { pause() } else { play() }
    }

    /// Doubles the speed (`>`): 64× goes to unlimited.
    public mutating func faster() { speed = speed.doubled }

    /// Halves the speed (`<`): unlimited goes to 64×, 1/16× stays.
    public mutating func slower() { speed = speed.halved }

    /// Moves the playhead by `seconds` of wall time times the speed (or, at unlimited speed,
    /// by ``unlimitedEventsPerSecond`` × `seconds` events) and applies the events passed,
    /// which it returns. Does nothing while paused; pauses on reaching the end.
    @discardableResult
    public mutating func advance(byWallSeconds seconds: Double) -> ArraySlice<CacheEvent> {
        guard isPlaying, seconds >= 0 else { return events[position..<position] }
        let start = position
        if let multiplier = speed.multiplier {
            let target = min(time + seconds * multiplier, endTime)
            let stop = Self.upperBound(events, ofTime: target, from: position)
            applyForward(to: stop)
            time = max(time, target)
        } else {
            let budget = max(1, Int((seconds * Double(unlimitedEventsPerSecond)).rounded(.up)))
            applyForward(to: min(events.count, position + budget))
            if let last = lastEvent { time = max(time, last.time) }
        }
        if isAtEnd {
            time = endTime
            isPlaying = false
        }
        return events[start..<position]
    }

    /// Applies the next event (`→`/`]`), pauses, and returns it (`nil` at the end).
    @discardableResult
    public mutating func stepForward() -> CacheEvent? {
        isPlaying = false
        guard !isAtEnd else { return nil }
        applyForward(to: position + 1)
        time = events[position - 1].time
        return events[position - 1]
    }

    /// Takes back the last event applied (`←`/`[`) and pauses.
    public mutating func stepBack() {
        isPlaying = false
        guard position > 0 else { return }
        seek(toPosition: position - 1)
    }

    // MARK: Applying

    mutating func applyForward(to stop: Int) {
        var index = position
        while index < stop {
            state.apply(events[index])
            index += 1
        }
        position = stop
    }

    /// The first index at or after `start` whose event is later than `time`.
    static func upperBound(_ events: [CacheEvent], ofTime time: Double, from start: Int) -> Int {
        // Playing moves a little at a time: look a few events ahead before bisecting.
        var index = start
        let probeEnd = min(events.count, start + 16)
        while index < probeEnd {
            if events[index].time > time { return index }
            index += 1
        }
        guard index < events.count else { return index }
        var low = index
        var high = events.count
        while low < high {
            let middle = (low + high) / 2
            if events[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
