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

    /// Applies a live or attached event that arrived at `wall`.
    mutating func ingest(_ event: CacheEvent, wall: Double) {
        sessionClock.observe(eventTime: event.time, wall: wall)
        state.apply(event)
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
