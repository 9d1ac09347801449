public import CacheEvents
public import SessionLog
public import TerminalUI

extension DashboardApp {
    /// A dashboard of an in-process caching client (`cachescope demo`).
    ///
    /// - Parameters:
    ///   - events: The client's events in bursts, typically
    ///     `await client.subscribe(.dashboard, snapshot: true).batches` (the store's statistics
    ///     and entries first, then live traffic).
    ///   - commands: Carries out purge, refresh and reload: `{ await client.perform($0) }`.
    ///   - theme: The theme to start with (from `ThemeLoader.resolve(option:)`).
    ///   - status: A first status-line message, e.g. why a requested theme could not be loaded.
    ///   - rewindEvents: How many recent events `←` `→` can rewind through
    ///     (``RewindHistory``; default 100,000; 0 turns rewinding off).
    public static func live<Batches: AsyncSequence & Sendable>(
        events: Batches, commands: @escaping CommandSender, theme: Theme, status: StatusMessage? = nil,
        rewindEvents: Int = RewindHistory.defaultCapacity
    ) -> DashboardApp where Batches.Element == [CacheEvent] {
        DashboardApp(
            state: DashboardState(mode: .live), replayer: nil, events: pumpBatches(events), commands: commands, theme: theme,
            status: status, rewindEvents: rewindEvents)
    }

    /// ``live(events:commands:theme:status:rewindEvents:)`` for a sequence of single events.
    public static func live<Events: AsyncSequence & Sendable>(
        events: Events, commands: @escaping CommandSender, theme: Theme, status: StatusMessage? = nil,
        rewindEvents: Int = RewindHistory.defaultCapacity
    ) -> DashboardApp where Events.Element == CacheEvent {
        DashboardApp(
            state: DashboardState(mode: .live), replayer: nil, events: pump(events), commands: commands, theme: theme,
            status: status, rewindEvents: rewindEvents)
    }

    /// A dashboard of another process, through its attach socket (`cachescope attach`).
    ///
    /// - Parameters:
    ///   - process: The name the header shows (`ATTACHED myapp`).
    ///   - events: The attach client's events (snapshot first, then live).
    ///   - commands: Sends a command over the socket: `{ try await client.send($0) }`.
    ///   - rewindEvents: As for ``live(events:commands:theme:status:rewindEvents:)``.
    public static func attached<Events: AsyncSequence & Sendable>(
        process: String, events: Events, commands: @escaping CommandSender, theme: Theme, status: StatusMessage? = nil,
        rewindEvents: Int = RewindHistory.defaultCapacity
    ) -> DashboardApp where Events.Element == CacheEvent {
        DashboardApp(
            state: DashboardState(mode: .attached(process: process)), replayer: nil, events: pump(events), commands: commands,
            theme: theme, status: status, rewindEvents: rewindEvents)
    }

    /// A dashboard of several processes at once (`cachescope attach S1 S2 …`): their events
    /// merged into one stream, each event carrying its instance's index
    /// (``CacheEvent/instance``). The Requests and Entries views get an instance column, the
    /// Stats view a line per instance, and commands go to the instances they concern.
    ///
    /// - Parameters:
    ///   - roster: The instances, named; keep it current with ``setInstances(_:)``.
    ///   - events: The merged events.
    ///   - commands: Sends a command to one instance, by index.
    ///   - rewindEvents: As for ``live(events:commands:theme:status:rewindEvents:)``.
    public static func fleet<Events: AsyncSequence & Sendable>(
        roster: InstanceRoster, events: Events, commands: @escaping InstanceCommandSender, theme: Theme,
        status: StatusMessage? = nil, rewindEvents: Int = RewindHistory.defaultCapacity
    ) -> DashboardApp where Events.Element == CacheEvent {
        var state = DashboardState(mode: .attached(process: "\(roster.instances.count) instances"))
        state.setInstances(roster)
        let app = DashboardApp(
            state: state, replayer: nil, events: pump(events), commands: nil, theme: theme, status: status,
            rewindEvents: rewindEvents, instanceCommands: commands)
        app.setInstances(roster)
        return app
    }

    /// A dashboard playing a recorded session (`cachescope replay`). Commands cannot be sent;
    /// the replay keys (`Space`, `<` `>`, `[` `]`, `←` `→`, `0`–`9`, `$`) steer the replayer.
    ///
    /// - Parameters:
    ///   - replayer: The session, folded into ``TrafficModel``; start it playing or not.
    ///   - unlimitedEventsPerSecond: Events applied per second at "as fast as possible", kept
    ///     low enough that a frame's folding stays short (default 500,000: ~16,000 a frame).
    public static func replay(
        _ replayer: SessionReplayer<TrafficModel>, theme: Theme, status: StatusMessage? = nil,
        unlimitedEventsPerSecond: Int = 500_000
    ) -> DashboardApp {
        var replayer = replayer
        replayer.unlimitedEventsPerSecond = unlimitedEventsPerSecond
        return DashboardApp(
            state: DashboardState(mode: .replay(ReplayStatus(replayer))), replayer: replayer, events: nil, commands: nil,
            theme: theme, status: status ?? StatusMessage("replay: Space plays and pauses, < > change speed, ? for every key"))
    }

    private static func pump<Events: AsyncSequence & Sendable>(_ events: Events) -> EventPump where Events.Element == CacheEvent {
        { deliver in
            for try await event in events { deliver([event]) }
        }
    }

    private static func pumpBatches<Batches: AsyncSequence & Sendable>(_ batches: Batches) -> EventPump
    where Batches.Element == [CacheEvent] {
        { deliver in
            for try await batch in batches { deliver(batch) }
        }
    }
}
