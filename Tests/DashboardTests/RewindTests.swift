import CacheEvents
import SessionLog
import Synchronization
import Testing
import TerminalUI
@testable import Dashboard

/// Live rewind: `Space` freezes, `←` `→` step through the recent history kept in a bounded
/// ring, `F` follows live again — and every rewound instant shows what a replay of the same
/// events shows at that instant.
@Suite("Live rewind through the recent history", .timeLimit(.minutes(1)))
struct RewindTests {
    /// A live app that has received `SampleSession.events`, keeping `ring` events for rewinding.
    private func liveApp(ring: Int) async throws -> DashboardApp {
        let (stream, continuation) = AsyncStream.makeStream(of: CacheEvent.self)
        for event in SampleSession.events { continuation.yield(event) }
        continuation.finish()
        let app = DashboardApp.live(
            events: stream, commands: { _ in CommandResult(succeeded: true, message: "") }, theme: try ThemeLoader.builtIn(named: "default"),
            rewindEvents: ring)
        await app.consumeEvents(redraw: {})
        return app
    }

    private func press(_ key: Key, _ app: DashboardApp) {
        _ = app.handle(key, theme: app.theme, redraw: {})
    }

    private func header(_ app: DashboardApp) -> String {
        String(app.frame(size: TerminalSize(columns: 120, rows: 40), theme: app.theme, redraw: {}).text.prefix(while: { $0 != "\n" }))
    }

    /// What a replay of `events` shows at `instant`.
    private func replayed(_ events: [CacheEvent], at instant: Double) -> TrafficModel {
        var replayer = SessionReplayer<TrafficModel>(events: events)
        replayer.seek(toTime: instant)
        return replayer.state
    }

    private func expectSame(_ shown: TrafficModel, _ replayed: TrafficModel, _ comment: Comment) {
        #expect(shown.counters == replayed.counters, comment)
        #expect(shown.eventsApplied == replayed.eventsApplied, comment)
        #expect(shown.clock == replayed.clock, comment)
        #expect(shown.requests.count == replayed.requests.count, comment)
        #expect(shown.entries.count == replayed.entries.count, comment)
        #expect(shown.store == replayed.store, comment)
    }

    @Test("a rewound instant equals the replayed state at that instant, although the ring is shorter than the session")
    func rewindEqualsReplay() async throws {
        let all = SampleSession.events + SampleSession.laterEvents
        // The store's statistics and entries at 0 s leave the ring: only its base holds them.
        let ring = all.count - 2
        let app = try await liveApp(ring: ring)
        press(.character(" "), app)
        #expect(app.snapshot.isPaused && app.snapshot.rewoundTo == nil)
        #expect(header(app).contains("LIVE FROZEN 0:11"), "\(header(app))")
        // Collection goes on while frozen; the rewind starts from the moment of the freeze.
        app.core.withLock { core in
            for event in SampleSession.laterEvents { core.ingest(event, wall: 0) }
        }

        press(.left, app)
        let back = app.snapshot
        let instant = try #require(back.rewoundTo)
        #expect(abs(instant - (try #require(SampleSession.events.last).time - 10)) < 1e-9, "10 s before the freeze, not before the latest event")
        #expect(back.shown.entries.count > 0, "the entries snapshot folded into the base is there")
        expectSame(back.shown, replayed(all, at: instant), "10 s back")
        #expect(header(app).contains("LIVE REWIND \(Format.clock(instant))"), "\(header(app))")
        // The rewind's instant is the one shown: no uptime beside it to contradict it.
        #expect(!header(app).contains(" up "), "\(header(app))")
        #expect(back.traffic.eventsApplied == all.count, "the live traffic is still current underneath")

        press(.left, app)   // past the oldest event kept: stops there
        let oldest = try #require(app.snapshot.rewoundTo)
        expectSame(app.snapshot.shown, replayed(all, at: oldest), "at the oldest kept event")
        #expect(app.snapshot.interface.status?.text.contains("the oldest kept (--rewind-events \(ring))") == true)

        press(.right, app)
        press(.right, app)
        let forward = app.snapshot
        expectSame(forward.shown, replayed(all, at: try #require(forward.rewoundTo)), "stepped forward again")

        press(.character("F"), app)
        let following = app.snapshot
        #expect(!following.isPaused && following.rewoundTo == nil)
        #expect(following.shown.eventsApplied == all.count)
        #expect(header(app).hasPrefix("CacheScope  LIVE  up "), "\(header(app))")
    }

    /// More events arrive while frozen than the ring keeps: the freeze's moment would leave the
    /// ring, so the rewind is anchored before it does — `←` still starts from the freeze, never
    /// from a later state.
    @Test("a freeze longer than the ring still rewinds from the moment of the freeze")
    func longFreeze() async throws {
        let all = SampleSession.events + SampleSession.laterEvents
        let ring = 2
        try #require(SampleSession.laterEvents.count > ring + 1)
        let app = try await liveApp(ring: ring)
        press(.character(" "), app)
        app.core.withLock { core in
            for event in SampleSession.laterEvents { core.ingest(event, wall: 0) }
        }
        press(.left, app)
        let instant = try #require(app.snapshot.rewoundTo)
        let frozeAt = try #require(SampleSession.events.last).time
        #expect(instant <= frozeAt, "rewound to \(instant), after the freeze at \(frozeAt)")
        expectSame(app.snapshot.shown, replayed(all, at: instant), "after a long freeze")
        #expect(app.snapshot.shown.eventsApplied <= SampleSession.events.count, "nothing that arrived after the freeze is shown")
    }

    @Test("← on a live display freezes it first; with --rewind-events 0 it says rewinding is off")
    func leftFreezes() async throws {
        let app = try await liveApp(ring: 1_000)
        press(.left, app)
        let state = app.snapshot
        #expect(state.isPaused)
        expectSame(state.shown, replayed(SampleSession.events, at: try #require(state.rewoundTo)), "one step back from live")

        let off = try await liveApp(ring: 0)
        press(.left, off)
        #expect(off.snapshot.interface.status?.text == "rewinding is off (--rewind-events 0)")
        #expect(off.snapshot.rewoundTo == nil)
    }

    /// The preview and the keys came from the rewound instant while the purge went to the
    /// live store: live entries the filter matched survived, and the count said was the past's.
    @Test("rewound, a purge by filter or selection is refused, saying why; F follows live, and the prompt opens again")
    func noPurgeOfThePast() async throws {
        let app = try await liveApp(ring: 1_000)
        press(.left, app)
        let instant = try #require(app.snapshot.rewoundTo)
        press(.character(":"), app)
        #expect(app.snapshot.interface.prompt == nil)
        #expect(app.snapshot.interface.status?.text
            == "rewound to \(Format.clock(instant)): a purge by selection or filter would name the past's entries; F follows live first")
        press(.character("d"), app)  // the selected row (or marked rows)
        #expect(app.snapshot.interface.overlay == nil)
        #expect(app.snapshot.interface.status?.text.hasPrefix("rewound to \(Format.clock(instant)): a purge by selection") == true)
        press(.character("F"), app)
        #expect(app.snapshot.rewoundTo == nil)
        press(.character(":"), app)
        #expect(app.snapshot.interface.prompt != nil, "\(app.snapshot.interface.status?.text ?? "")")
    }

    @Test("in a replay, ← and → keep seeking the replay")
    func replayKeepsArrows() {
        #expect(KeyTable.action(for: .left, replay: true) == .replay(.seek(seconds: -10)))
        #expect(KeyTable.action(for: .right, replay: true) == .replay(.seek(seconds: 10)))
        #expect(KeyTable.action(for: .left, replay: false) == .rewind(.seek(seconds: -10)))
        #expect(KeyTable.action(for: .right, replay: false) == .rewind(.seek(seconds: 10)))
    }

    @Test("→ on a live display neither freezes it nor moves it, and says why")
    func rightOnLiveDisplay() async throws {
        let app = try await liveApp(ring: 1_000)
        press(.right, app)
        let state = app.snapshot
        #expect(!state.isPaused && state.rewoundTo == nil)
        #expect(state.interface.status?.text == "the display is live: → steps forward while frozen or rewound (← steps back 10 s)")
        #expect(header(app).hasPrefix("CacheScope  LIVE  up "), "\(header(app))")
        press(.left, app)
        press(.right, app)
        #expect(app.snapshot.isPaused, "→ after ← still steps through the history")
        #expect(app.snapshot.interface.status?.text.hasPrefix("rewound to") == true)
    }

    @Test("the history keeps the newest events in order, and its states are the live traffic's as it went")
    func historyRing() {
        var history = RewindHistory(capacity: 5)
        var traffic = TrafficModel()
        let events = SampleSession.events
        for event in events {
            history.append(event, after: traffic)
            traffic.apply(event)
        }
        #expect(history.events.map(\.seq) == events.suffix(5).map(\.seq))
        var replayer = history.replayer()
        replayer.seekToEnd()
        #expect(replayer.state.counters == TrafficModel(folding: events).counters)
        #expect(replayer.state.eventsApplied == events.count)
    }

    @Test("in segments: at least the capacity kept, and every position of the replayer equals the fold of the events up to it")
    func historySegments() throws {
        let events = SampleSession.events + SampleSession.laterEvents
        let capacity = 8
        try #require(events.count > 2 * capacity)
        var history = RewindHistory(capacity: capacity)
        var traffic = TrafficModel()
        for (index, event) in events.enumerated() {
            let oldestNext = history.oldestAfterNextAppend
            history.append(event, after: traffic)
            traffic.apply(event)
            let kept = history.events
            #expect(kept.count >= min(index + 1, capacity) && kept.count < capacity + capacity / 4 + 1, "after \(index + 1) events")
            #expect(kept.map(\.seq) == events[(index + 1 - kept.count)...index].map(\.seq))
            #expect(oldestNext == index + 1 - kept.count, "the oldest kept, as announced before the append")
        }
        let kept = history.events.count
        var replayer = history.replayer()
        for position in 0...kept {
            replayer.seek(toPosition: position)
            let expected = TrafficModel(folding: Array(events.prefix(events.count - kept + position)))
            #expect(replayer.state.counters == expected.counters, "at position \(position)")
            #expect(replayer.state.eventsApplied == expected.eventsApplied, "at position \(position)")
            #expect(replayer.state.entries.count == expected.entries.count, "at position \(position)")
        }
    }
}
