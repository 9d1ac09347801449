import CacheEvents
import SessionLog

/// What the app guards with its one lock: the state, the replayer (in a replay), and the clocks.
struct DashboardCore: Sendable {
    var state: DashboardState
    /// In a replay, the replayer owns the traffic; `state.traffic` stays empty.
    var replayer: SessionReplayer<TrafficModel>?
    var sessionClock = SessionClock()
    /// Wall seconds at the last replay advance.
    var lastTick: Double?
    /// Live and attached: the recent events `←` `→` rewind through (`nil`: rewinding is off).
    var history: RewindHistory?
    /// Events ingested so far, and their count when the display froze (`nil` while live).
    var ingested = 0
    var frozenAfter: Int?
    /// While rewinding: the replayer over the history as it was at the first `←` or `→`.
    var rewinder: SessionReplayer<TrafficModel>?

    /// Applies a live or attached event that arrived at `wall`.
    mutating func ingest(_ event: CacheEvent, wall: Double) {
        sessionClock.observe(eventTime: event.time, wall: wall)
        state.apply(event)
        history?.append(event)
        ingested += 1
    }

    /// Notes a freeze or a return to live after a key: the history's position at the freeze
    /// is where rewinding starts from.
    mutating func noteDisplayState() {
        if state.isPaused {
            if frozenAfter == nil { frozenAfter = ingested }
        } else {
            frozenAfter = nil
            rewinder = nil
        }
    }

    /// `←` `→` in a live dashboard: freezes the display if it is live, then moves through the
    /// recent history (from the moment of the freeze); returns a line for the status bar.
    mutating func rewind(_ control: ReplayControl) -> String {
        guard let history else { return "rewinding is off (--rewind-events 0)" }
        if !state.isPaused { state.pause() }
        noteDisplayState()
        if rewinder == nil {
            var replayer = history.replayer()
            // The freeze's moment: events that arrived since are in the history but not shown.
            let sinceFreeze = ingested - (frozenAfter ?? ingested)
            replayer.seek(toPosition: replayer.events.count - sinceFreeze)
            rewinder = replayer
        }
        guard var replayer = rewinder else { return "" }
        _ = control.apply(to: &replayer)
        rewinder = replayer
        state.showRewound(replayer.state, at: replayer.time)
        let oldest = replayer.startTime
        let edge = replayer.time <= oldest ? " — the oldest kept (--rewind-events \(Format.count(history.capacity)))" : ""
        return "rewound to \(Format.clock(replayer.time))\(edge); ← → step 10 s, F follows live"
    }

    /// Moves a playing replay on by the wall time since the last frame; returns whether it is
    /// still playing (so another frame should follow).
    mutating func advanceReplay(wall: Double) -> Bool {
        guard replayer != nil else { return false }
        defer { lastTick = wall }
        guard let lastTick, replayer!.isPlaying else { return replayer!.isPlaying }
        // A long stall (a suspended terminal) must not turn into one huge jump.
        replayer!.advance(byWallSeconds: min(max(0, wall - lastTick), 0.25))
        return replayer!.isPlaying
    }

    /// Runs `body` on the state as the screen shows it, with "now" in session seconds. In a
    /// replay the replayer's traffic is lent to the state for the call and taken back after,
    /// so the replayer's storage stays uniquely referenced (no copy when it applies more events).
    mutating func withShownState<Result>(wall: Double, _ body: (inout DashboardState, Double) -> Result) -> Result {
        guard let replayer else { return body(&state, sessionClock.now(wall: wall)) }
        var composed = state
        composed.traffic = replayer.state
        composed.interface.mode = .replay(ReplayStatus(replayer))
        let result = body(&composed, replayer.time)
        composed.traffic = TrafficModel()
        composed.frozen = nil
        state = composed
        return result
    }
}
