public import CacheEvents
import SessionLog
import Foundation
import Logging
import Synchronization
public import TerminalUI
import HTTPCaching

/// Sends a command to the cache being watched and returns what it did; a thrown error is shown
/// on the status line as a failure.
public typealias CommandSender = @Sendable (ClientCommand) async throws -> CommandResult

/// Sends a command to one instance of a fleet, by its index (``CacheEvent/instance``), and
/// returns what it did (`cachescope attach S1 S2 …`).
public typealias InstanceCommandSender = @Sendable (ClientCommand, UInt16) async throws -> CommandResult

/// The running dashboard: consumes an event stream into a ``DashboardState`` (off the curses
/// thread), draws it with ``DashboardLayout`` on TerminalUI's ``ScreenLoop``, turns keys into
/// state changes and commands with ``DashboardKeys``, and shows command results on the status
/// line. The `cachescope` commands only build one and call ``run(terminal:)``.
///
/// ```swift
/// let client = try await CachingClient(configuration: configuration)
/// let app = DashboardApp.live(events: await client.subscribe(.dashboard, snapshot: true).batches,
///                             commands: { await client.perform($0) },
///                             theme: try ThemeLoader.resolve(option: nil))
/// let exit = try await app.run()
/// ```
///
/// Concurrency: a `final class` of constants; the state, the replayer and the clocks sit behind
/// one `Mutex`, taken by the event task (to apply events), the loop thread (to render and
/// handle keys — layout takes well under 2 ms) and command tasks (to show results). Events are
/// applied a burst at a time (one lock per burst); redraws are requested per burst and
/// coalesced by the loop to at most ~30 frames a second, plus one a second for the TTL
/// countdowns.
public final class DashboardApp: Sendable {
    /// Feeds bursts of events to a delivery function until the stream ends.
    typealias EventPump = @Sendable (@escaping @Sendable ([CacheEvent]) -> Void) async throws -> Void

    let core: Mutex<DashboardCore>
    let events: EventPump?
    let commands: CommandSender?
    /// In a fleet: sends to one instance; commands then go to the instances they concern.
    let instanceCommands: InstanceCommandSender?
    /// The theme the dashboard starts with.
    public let theme: Theme
    let logger = Logger(label: "cachescope.dashboard")
    private let started = ContinuousClock.now
    /// The running loop, so messages from outside can ask for a frame.
    private let loop = Mutex<ScreenLoop?>(nil)

    init(
        state: DashboardState, replayer: SessionReplayer<TrafficModel>?,
        events: EventPump?,
        commands: CommandSender?, theme: Theme, status: StatusMessage?, rewindEvents: Int = 0,
        instanceCommands: InstanceCommandSender? = nil
    ) {
        var state = state
        state.interface.status = status
        state.interface.themeName = theme.name
        var core = DashboardCore(state: state, replayer: replayer)
        if rewindEvents > 0 { core.history = RewindHistory(capacity: rewindEvents) }
        self.core = Mutex(core)
        self.events = events
        self.commands = commands
        self.instanceCommands = instanceCommands
        self.theme = theme
    }

    /// Seconds since the app was created, on the monotonic clock.
    var wall: Double {
        (ContinuousClock.now - started).inSeconds
    }

    // MARK: Running

    /// Takes over the terminal and runs until `q`/`Q`, SIGINT or SIGTERM; the terminal is
    /// restored on every way out.
    /// - Throws: ``TerminalError`` when there is no terminal or its type is unknown.
    public func run(terminal: Terminal = Terminal()) async throws(TerminalError) -> ScreenLoop.Exit {
        let loop = ScreenLoop(terminal: terminal, theme: theme, minimumSize: DashboardLayout.minimumSize)
        self.loop.withLock { $0 = loop }
        let consumer = Task { await self.consumeEvents(redraw: { loop.requestRedraw() }) }
        defer {
            consumer.cancel()
            self.loop.withLock { $0 = nil }
        }
        logger.info("dashboard started")
        let exit = try await loop.run(
            render: { size in self.frame(size: size, theme: loop.theme, redraw: { loop.requestRedraw() }) },
            handleKey: { key in self.handle(key, theme: loop.theme, redraw: { loop.requestRedraw() }) })
        logger.info("dashboard ended", metadata: ["exit": "\(exit)"])
        return exit
    }

    /// Applies the event stream until it ends (or the task is cancelled) and says on the status
    /// line when and why it ended.
    func consumeEvents(redraw: @escaping @Sendable () -> Void) async {
        guard let events else { return }
        do {
            try await events { batch in
                let wall = self.wall
                self.core.withLock { core in
                    for event in batch { core.ingest(event, wall: wall) }
                }
                redraw()
            }
            guard !Task.isCancelled else { return }
            logger.notice("event stream ended")
            core.withLock { $0.state.setStatus("the event stream ended: no more traffic will arrive (q quits)", kind: .failure) }
        } catch {
            guard !Task.isCancelled else { return }
            logger.error("event stream failed", metadata: ["error": "\(error)"])
            core.withLock { $0.state.setStatus("events stopped: \(error)", kind: .failure) }
        }
        redraw()
    }

    /// The frame for a size; advances a playing replay first.
    func frame(size: TerminalSize, theme: Theme, redraw: () -> Void) -> Grid {
        let wall = self.wall
        let (grid, again) = core.withLock { core -> (Grid, Bool) in
            core.state.interface.screen = size
            let playing = core.advanceReplay(wall: wall)
            let grid = core.withShownState(wall: wall) { state, now in
                state.interface.now = now
                return DashboardLayout.render(state, size: size, theme: theme, now: now)
            }
            // Drawing matched the rows: a pattern given up there is said in the next frame.
            let gaveUp = core.state.reportFilterGiveUp()
            let pasteEnded = core.endStalledPaste(wall: wall)
            return (grid, playing || gaveUp || pasteEnded)
        }
        if again { redraw() }
        return grid
    }

    /// Applies a key and carries out its effects; returns what the loop must redo.
    func handle(_ key: Key, theme: Theme, redraw: @escaping @Sendable () -> Void) -> LoopAction {
        let wall = self.wall
        let effects = core.withLock { core in
            let effects = core.withShownState(wall: wall) { state, now in
                state.interface.now = now
                return DashboardKeys.handle(key, state: &state)
            }
            core.noteDisplayState()
            core.notePasteKey(wall: wall)
            return effects
        }
        var action = LoopAction.continue
        for effect in effects {
            switch effect {
            case .redraw:
                if action == .continue { action = .redraw }
            case .quit:
                return .quit
            case .send(let command):
                if instanceCommands != nil { send(command, to: nil, redraw: redraw) } else { send(command, redraw: redraw) }
            case .sendTo(let command, let instances):
                if instanceCommands != nil { send(command, to: instances, redraw: redraw) } else { send(command, redraw: redraw) }
            case .purgeEach(let targets):
                if instanceCommands != nil {
                    purge(targets, redraw: redraw)
                } else {
                    purgeLocally(targets, redraw: redraw)
                }
            case .nextTheme:
                if let next = nextTheme(after: theme) { action = .setTheme(next) }
            case .rewind(let control):
                // The first step back makes the replayer over the history (copying its events
                // and folding up to a segment of them): outside the lock, so events keep coming.
                let made = core.withLock { $0.prepareRewind(control) }?.make()
                core.withLock { core in core.state.setStatus(core.rewind(control, made: made)) }
                if action == .continue { action = .redraw }
            case .replay(let control):
                core.withLock { core in
                    guard core.replayer != nil else { return }
                    let message = control.apply(to: &core.replayer!)
                    core.lastTick = wall
                    core.state.setStatus(message)
                }
                redraw()
            }
        }
        return action
    }

    private func nextTheme(after theme: Theme) -> Theme? {
        if ThemeLoader.noColorRequested(in: ProcessInfo.processInfo.environment) {
            // Every theme would be painted without colour: naming one would be untrue.
            core.withLock { $0.state.setStatus("NO_COLOR is set: the dashboard stays without colour (mono); unset it to use themes", kind: .failure) }
            return nil
        }
        do {
            let next = try ThemeLoader.nextTheme(after: theme)
            core.withLock { $0.state.setStatus("theme: \(next.name)") }
            logger.info("theme changed", metadata: ["theme": "\(next.name)"])
            return next
        } catch {
            core.withLock { $0.state.setStatus("cannot switch theme: \(error)", kind: .failure) }
            return nil
        }
    }

    /// Sends a command on its own task; its result goes to the status line.
    func send(_ command: ClientCommand, redraw: @escaping @Sendable () -> Void) {
        guard let commands else { return }
        let logger = self.logger
        Task {
            let result: CommandResult
            do {
                result = try await commands(command)
            } catch {
                result = CommandResult(succeeded: false, message: "\(command.name) failed: \(error)")
            }
            logger.info("command", metadata: [
                "command": "\(command.name)", "key": "\(command.key ?? "-")", "ok": "\(result.succeeded)", "result": "\(result.message)",
            ])
            self.core.withLock { $0.state.show(result) }
            redraw()
        }
    }

    /// In a fleet: sends `command` to `instances` (`nil`: every instance: `D`, `e`) at once,
    /// and shows their results together (``FleetCommandReport``). Instances that are gone are
    /// not told, and the report says so — for a command to all of them too, whose report
    /// left them out (`✓ purgeAll on 2 instances` with a third gone, its entries untouched).
    func send(_ command: ClientCommand, to instances: [UInt16]?, redraw: @escaping @Sendable () -> Void) {
        guard let instanceCommands else { return }
        let roster = core.withLock { $0.state.interface.instances }
        let targets = instances ?? roster.instances.indices.map { UInt16(clamping: $0) }
        let logger = self.logger
        Task {
            let answers = await withTaskGroup(of: (Int, FleetCommandReport.Answer).self) { group in
                for (position, index) in targets.enumerated() {
                    let name = roster[index]?.name ?? "#\(index)"
                    guard roster[index]?.connected ?? false else {
                        // Gone — or never reached yet (no hello: pid 0), which is no "gone".
                        let neverReached = roster[index]?.pid == 0
                        let result = neverReached ? CommandResult(succeeded: false, message: "not reached yet (not told)") : nil
                        group.addTask { (position, FleetCommandReport.Answer(name: name, result: result)) }
                        continue
                    }
                    group.addTask {
                        do {
                            return (position, FleetCommandReport.Answer(name: name, result: try await instanceCommands(command, index)))
                        } catch {
                            return (position, FleetCommandReport.Answer(
                                name: name, result: CommandResult(succeeded: false, message: "failed: \(error)")))
                        }
                    }
                }
                var answers: [(Int, FleetCommandReport.Answer)] = []
                for await answer in group { answers.append(answer) }
                return answers.sorted { $0.0 < $1.0 }.map(\.1)
            }
            let report = FleetCommandReport(command: command, results: answers)
            logger.info("fleet command", metadata: [
                "command": "\(command.name)", "key": "\(command.key ?? "-")", "ok": "\(report.succeeded)", "result": "\(report.message)",
            ])
            self.core.withLock { $0.state.setStatus(report.message, kind: report.succeeded ? .success : .failure) }
            redraw()
        }
    }

    /// Names the instances of a fleet and says which are connected (`cachescope attach S1 S2
    /// …` calls it when one connects, goes or comes back); the Requests and Entries views then
    /// show the instance column, and `instance:NAME` filters by it.
    public func setInstances(_ roster: InstanceRoster) {
        core.withLock { core in
            let ended = core.state.interface.instances.livesEnded(in: roster)
            core.state.setInstances(roster)
            core.history?.nameInstances(roster.isFleet ? roster.names : [])
            for end in ended { core.history?.endLife(of: end.instance, after: end.afterSeq) }
        }
        loop.withLock { $0 }?.requestRedraw()
    }

    /// Puts a message on the status line from outside the dashboard ("the workload finished");
    /// it shows in the next frame.
    public func setStatus(_ text: String, kind: StatusMessage.Kind = .info) {
        core.withLock { $0.state.setStatus(text, kind: kind) }
        loop.withLock { $0 }?.requestRedraw()
    }

    /// A copy of the state as the screen shows it (for tests and summaries).
    public var snapshot: DashboardState {
        let wall = self.wall
        return core.withLock { core in core.withShownState(wall: wall) { state, _ in state } }
    }
}
