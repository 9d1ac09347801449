import CacheEvents
import DemoOrigin  // SplitMix64: a seeded generator, so failures reproduce
import SessionLog
import HTTPCaching
import Testing

/// A test-only fold that remembers everything: equal states mean exactly the same events
/// were applied in the same order.
private struct AppliedEvents: EventFolding, Equatable {
    var seqs: [UInt64] = []
    var checksum: UInt64 = 0

    init() {}

    mutating func apply(_ event: CacheEvent) {
        seqs.append(event.seq)
        checksum = checksum &* 31 &+ event.seq &+ UInt64(event.time * 1000)
    }
}

@Suite("Session replayer", .timeLimit(.minutes(2)))
struct SessionReplayerTests {
    /// 5,000 events over about 100 s with bursts (several events at one time) and gaps.
    static let events: [CacheEvent] = {
        var random = SplitMix64(seed: 11)
        var time = 3.0
        var events: [CacheEvent] = []
        var script = SampleSession.script
        for index in 0..<5000 {
            if random.next() % 4 != 0 { time += Double(random.next() % 40) / 1000 }
            if random.next() % 500 == 0 { time += 5 }
            let (kind, id) = script[index % script.count]
            events.append(CacheEvent(seq: UInt64(index + 1), time: time, requestID: id.map { $0 + UInt64(index / script.count) * 100 }, kind: kind))
        }
        script.removeAll()
        return events
    }()

    private func expected<State: EventFolding>(_ type: State.Type, upTo position: Int) -> State {
        State(folding: Self.events[..<position])
    }

    /// Plays the session at `multiplier` times in random wall-clock steps of up to `maxStep`
    /// milliseconds; after each step a second replayer seeks to the player's time and must hold
    /// the same state. With `wander` the seeker first seeks, half the time, to a random fraction,
    /// so it seeks from wherever it is: sometimes back, sometimes forward. `eachStep` checks more.
    /// Returns the player at the end and the number of steps.
    private func playWhileSeeking<State: EventFolding & Equatable>(
        _ type: State.Type, checkpointInterval: Int, seed: UInt64, multiplier: Double, maxStep: UInt64, wander: Bool,
        eachStep: (_ player: SessionReplayer<State>, _ seeker: SessionReplayer<State>) -> Void = { _, _ in }
    ) throws -> (player: SessionReplayer<State>, steps: Int) {
        var player = SessionReplayer<State>(events: Self.events, checkpointInterval: checkpointInterval)
        var seeker = SessionReplayer<State>(events: Self.events, checkpointInterval: checkpointInterval)
        var random = SplitMix64(seed: seed)
        player.speed = try #require(ReplaySpeed(multiplier: multiplier))
        player.play()
        var steps = 0
        while !player.isAtEnd {
            player.advance(byWallSeconds: Double(random.next() % maxStep) / 1000)
            if wander, random.next() % 2 == 0 { seeker.seek(toFraction: Double(random.next() % 100) / 100) }
            seeker.seek(toTime: player.time)
            #expect(seeker.state == player.state, "at t=\(player.time)")
            eachStep(player, seeker)
            steps += 1
        }
        return (player, steps)
    }

    @Test("seeking to a time gives the state playing to that time gives (test fold)")
    func seekEqualsPlayTestFold() throws {
        let (player, steps) = try playWhileSeeking(
            AppliedEvents.self, checkpointInterval: 128, seed: 5, multiplier: 4, maxStep: 500, wander: true
        ) { player, seeker in
            #expect(seeker.position == player.position)
            #expect(player.state.seqs.count == player.position)
        }
        #expect(steps > 20)
        #expect(player.state == expected(AppliedEvents.self, upTo: Self.events.count))
    }

    @Test("seeking equals playing with TrafficCounters as the fold")
    func seekEqualsPlayCounters() throws {
        let (player, _) = try playWhileSeeking(
            TrafficCounters.self, checkpointInterval: 300, seed: 6, multiplier: 16, maxStep: 300, wander: false)
        #expect(player.state == TrafficCounters(folding: Self.events))
    }

    @Test("seeking to random times and percentages lands exactly on the events up to them")
    func seekTargets() {
        var replay = SessionReplayer<AppliedEvents>(events: Self.events, checkpointInterval: 200)
        var random = SplitMix64(seed: 7)
        let start = Self.events.first!.time
        let end = Self.events.last!.time
        for _ in 0..<200 {
            let target = start - 5 + Double(random.next() % 1_000_000) / 1_000_000 * (end - start + 10)
            replay.seek(toTime: target)
            let clamped = min(max(target, start), end)
            let count = Self.events.filter { $0.time <= clamped }.count
            #expect(replay.position == count)
            #expect(replay.time == clamped)
            #expect(replay.state == expected(AppliedEvents.self, upTo: count))
        }
        for key in 0...9 {
            replay.seek(toFraction: Double(key) / 10)
            let time = start + (end - start) * (Double(key) / 10)
            #expect(replay.time == time)
            #expect(replay.position == Self.events.filter { $0.time <= time }.count)
            #expect(replay.state == expected(AppliedEvents.self, upTo: replay.position))
        }
        replay.seekToEnd()
        #expect(replay.isAtEnd && replay.time == end && replay.progress == 1)
        #expect(replay.state == expected(AppliedEvents.self, upTo: Self.events.count))
    }

    @Test("seek by ±10 s moves the playhead and clamps at both ends")
    func seekBySeconds() {
        var replay = SessionReplayer<AppliedEvents>(events: Self.events, checkpointInterval: 500)
        let start = Self.events.first!.time
        replay.seek(by: 10)
        #expect(abs(replay.time - (start + 10)) < 1e-9)
        replay.seek(by: 10)
        #expect(abs(replay.time - (start + 20)) < 1e-9)
        replay.seek(by: -10)
        #expect(abs(replay.time - (start + 10)) < 1e-9)
        #expect(replay.position == Self.events.filter { $0.time <= replay.time }.count)
        replay.seek(by: -100)
        #expect(replay.time == start && replay.position == Self.events.filter { $0.time <= start }.count)
        replay.seek(by: 1_000_000)
        #expect(replay.isAtEnd)
        #expect(replay.state == expected(AppliedEvents.self, upTo: Self.events.count))
    }

    @Test("stepping forward and back applies and takes back one event at a time")
    func stepping() {
        var replay = SessionReplayer<AppliedEvents>(events: Self.events, checkpointInterval: 64)
        replay.seek(toPosition: 130)
        replay.play()
        let next = replay.stepForward()
        #expect(next == Self.events[130])
        #expect(replay.position == 131 && !replay.isPlaying)
        #expect(replay.time == Self.events[130].time)
        for position in stride(from: 130, through: 120, by: -1) {
            replay.stepBack()
            #expect(replay.position == position)
            #expect(replay.state == expected(AppliedEvents.self, upTo: position))
            #expect(replay.time == Self.events[position - 1].time)
        }
        replay.seek(toPosition: 0)
        replay.stepBack()
        #expect(replay.position == 0 && replay.state == AppliedEvents())
        replay.seekToEnd()
        #expect(replay.stepForward() == nil)
        replay.stepBack()
        #expect(replay.position == Self.events.count - 1)
        #expect(replay.lastEvent == Self.events[Self.events.count - 2])
    }

    @Test("advance moves by wall time × speed, returns the events passed, and pauses at the end")
    func advancing() {
        let events = (0..<10).map { CacheEvent(seq: UInt64($0 + 1), time: Double($0), kind: .dropped(Dropped(count: $0))) }
        var replay = SessionReplayer<AppliedEvents>(events: events)
        #expect(replay.advance(byWallSeconds: 5).isEmpty, "paused: nothing moves")
        #expect(replay.time == 0 && replay.position == 0)
        replay.play()
        #expect(replay.advance(byWallSeconds: 0).map(\.seq) == [1])
        #expect(replay.advance(byWallSeconds: 1.5).map(\.seq) == [2])
        #expect(replay.time == 1.5)
        replay.faster()
        #expect(replay.speed.description == "2×")
        #expect(replay.advance(byWallSeconds: 1).map(\.seq) == [3, 4])
        #expect(replay.time == 3.5)
        replay.slower()
        replay.slower()
        #expect(replay.speed.description == "1/2×")
        #expect(replay.advance(byWallSeconds: 1).map(\.seq) == [5])
        replay.speed = .maximumMultiplier
        #expect(replay.advance(byWallSeconds: 1).map(\.seq) == [6, 7, 8, 9, 10])
        #expect(replay.isAtEnd && !replay.isPlaying && replay.time == 9)
        replay.play()
        #expect(replay.position == 0 && replay.isPlaying, "play at the end starts again")
        replay.togglePlaying()
        #expect(!replay.isPlaying)
    }

    @Test("as fast as possible applies a number of events per wall second")
    func unlimited() {
        var replay = SessionReplayer<AppliedEvents>(events: Self.events, speed: .unlimited)
        replay.unlimitedEventsPerSecond = 1000
        replay.play()
        #expect(replay.advance(byWallSeconds: 0.1).count == 100)
        #expect(replay.time == Self.events[99].time)
        #expect(replay.advance(byWallSeconds: 1).count == 1000)
        #expect(replay.position == 1100)
        while !replay.isAtEnd { replay.advance(byWallSeconds: 1) }
        #expect(replay.state == expected(AppliedEvents.self, upTo: Self.events.count))
    }

    @Test("checkpoints: default spacing and out-of-order times clamped")
    func construction() {
        let replay = SessionReplayer<TrafficCounters>(events: Self.events)
        #expect(replay.checkpointInterval == 50_000)
        let unordered = [5.0, 3, 7].enumerated().map { CacheEvent(seq: UInt64($0.offset + 1), time: $0.element, kind: .dropped(Dropped(count: 1))) }
        var clamped = SessionReplayer<AppliedEvents>(events: unordered)
        #expect(clamped.events.map(\.time) == [5, 5, 7])
        clamped.seek(toTime: 5)
        #expect(clamped.position == 2)
        let empty = SessionReplayer<TrafficCounters>(events: [])
        #expect(empty.isAtEnd && empty.progress == 1 && empty.startTime == 0)
    }
}
