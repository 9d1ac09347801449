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

    /// While a paste arrives: when its last key came (wall seconds).
    var lastPasteKey: Double?

    /// How long a paste may go without a key before it is taken to have ended: its end marker
    /// was lost (split past ncurses' escape delay over a slow link), and every key after it
    /// would be swallowed as pasted text.
    static let pasteSilence = 1.0

    /// Notes the time of a key that arrived in a paste.
    mutating func notePasteKey(wall: Double) {
        lastPasteKey = state.interface.pasteDropped == nil ? nil : wall
    }

    /// Ends a paste whose end marker did not come within ``pasteSilence`` of its last key,
    /// saying so; returns whether it did.
    mutating func endStalledPaste(wall: Double) -> Bool {
        guard state.interface.pasteDropped != nil, let last = lastPasteKey, wall - last > Self.pasteSilence else { return false }
        _ = state.bracketPaste(start: false)
        lastPasteKey = nil
        state.setStatus("a paste did not end (the terminal's end marker never came): keys work again", kind: .failure)
        return true
    }

    /// Applies a live or attached event that arrived at `wall`.
    mutating func ingest(_ event: CacheEvent, wall: Double) {
        sessionClock.observe(eventTime: event.time, wall: wall)
        if let frozenAfter, rewinder == nil, let start = history?.oldestAfterNextAppend, start >= frozenAfter {
            // A long freeze: the last event before it is about to leave the history (and with
            // it the freeze's instant), so the replayer over the history as it was then is made
            // now, while it can still start there.
            rewinder = prepareRewinder()?.make()
        }
        history?.append(event, after: state.traffic)
        state.apply(event)
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

    /// `←` `→` in a live dashboard, first step, under the lock: freezes the display if it is
    /// live and returns what making the rewinder takes, when there is none yet — made with
    /// ``RewinderStart/make()`` outside the lock and handed to ``rewind(_:made:)``. A step
    /// forward on a live display neither freezes it nor needs a rewinder.
    mutating func prepareRewind(_ control: ReplayControl) -> RewinderStart? {
        guard history != nil, state.isPaused || !control.movesForward else { return nil }
        if !state.isPaused { state.pause() }
        noteDisplayState()
        return rewinder == nil ? prepareRewinder() : nil
    }

    /// `←` `→` in a live dashboard, second step, under the lock: moves through the recent
    /// history (from the moment of the freeze), with the rewinder `made` from
    /// ``prepareRewind(_:)`` if there was none; returns a line for the status bar. On a live
    /// display a step forward changes nothing (there is nothing newer) and says so.
    mutating func rewind(_ control: ReplayControl, made: SessionReplayer<TrafficModel>?) -> String {
        guard let history else { return "rewinding is off (--rewind-events 0)" }
        if !state.isPaused, control.movesForward {
            // Live is the newest there is: nothing to step forward to, and no reason to freeze.
            return "the display is live: → steps forward while frozen or rewound (← steps back 10 s)"
        }
        if !state.isPaused { state.pause() }
        noteDisplayState()
        if rewinder == nil { rewinder = made ?? prepareRewinder()?.make() }
        guard var replayer = rewinder else { return "" }
        _ = control.apply(to: &replayer)
        rewinder = replayer
        state.showRewound(replayer.state, at: replayer.time)
        let oldest = replayer.startTime
        let edge = replayer.time <= oldest ? " — the oldest kept (--rewind-events \(Format.count(history.capacity)))" : ""
        return "rewound to \(Format.clock(replayer.time))\(edge); ← → step 10 s, F follows live"
    }

    /// What the replayer `←` `→` move through is made from: the history and how many of its
    /// events arrived after the freeze (those are kept but not shown).
    private func prepareRewinder() -> RewinderStart? {
        guard let history else { return nil }
        return RewinderStart(history: history, sinceFreeze: ingested - (frozenAfter ?? ingested))
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
        composed.frozen = nil  // a replay pauses its replayer, never a frozen copy
        composed.frozenAt = nil
        state = composed
        return result
    }
}

/// The history as it was at a freeze, to make the rewinder from outside the app's lock: making
/// it copies the kept events and folds up to a segment of them to reach the freeze's moment.
struct RewinderStart: Sendable {
    let history: RewindHistory
    let sinceFreeze: Int

    /// A paused replayer over the history, at the freeze's moment.
    func make() -> SessionReplayer<TrafficModel> {
        var replayer = history.replayer()
        replayer.seek(toPosition: max(0, replayer.events.count - sinceFreeze))
        return replayer
    }
}
