import CacheStore
import CacheEvents
import SessionLog
import Foundation
import Synchronization
import Testing
import TerminalUI
@testable import Dashboard

/// The app glue without a terminal: events from a real `AsyncStream`, keys through the same
/// handler the screen loop calls, commands through a sender closure, frames from the same
/// render function.
@Suite("Dashboard app glue", .timeLimit(.minutes(2)))
struct DashboardAppTests {
    /// Commands the sender received, and what it answers.
    final class CommandLog: Sendable {
        let received = Mutex<[ClientCommand]>([])
        func send(_ command: ClientCommand) -> CommandResult {
            received.withLock { $0.append(command) }
            return CommandResult(succeeded: true, message: "purged 1 entry of \(command.key ?? "everything")")
        }
    }

    struct OriginDown: Error, CustomStringConvertible {
        var description: String { "connection refused" }
    }

    private func liveApp(commands: @escaping CommandSender) async throws -> DashboardApp {
        let (stream, continuation) = AsyncStream.makeStream(of: CacheEvent.self)
        for event in SampleSession.events { continuation.yield(event) }
        continuation.finish()
        let app = DashboardApp.live(events: stream, commands: commands, theme: try ThemeLoader.builtIn(named: "default"))
        await app.consumeEvents(redraw: {})
        return app
    }

    @Test("Events from the stream fill the state; its end is told on the status line")
    func consumesEvents() async throws {
        let log = CommandLog()
        let app = try await liveApp { log.send($0) }
        let state = app.snapshot
        #expect(state.traffic.counters.requests == 10)
        #expect(state.traffic.entries.count == 5)
        #expect(state.interface.status == StatusMessage(
            "the event stream ended: no more traffic will arrive (q quits)", kind: .failure))
        let grid = app.frame(size: TerminalSize(columns: 120, rows: 40), theme: app.theme, redraw: {})
        #expect(grid.text.hasPrefix("CacheScope  LIVE  up "))
        #expect(grid.text.contains("10 requests  ✓ hit 1"))
    }

    @Test("A failing attach stream says why on the status line")
    func attachedFailure() async throws {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: CacheEvent.self)
        continuation.yield(SampleSession.events[0])
        continuation.finish(throwing: OriginDown())
        let app = DashboardApp.attached(process: "myapp", events: stream, commands: { _ in throw OriginDown() },
                                        theme: try ThemeLoader.builtIn(named: "default"))
        await app.consumeEvents(redraw: {})
        #expect(app.snapshot.interface.status == StatusMessage("events stopped: connection refused", kind: .failure))
        #expect(app.frame(size: TerminalSize(columns: 80, rows: 24), theme: app.theme, redraw: {}).text.hasPrefix("ATTACHED myapp"))
    }

    @Test("d sends the purge through the sender and its result reaches the status line")
    func commandResult() async throws {
        let log = CommandLog()
        let app = try await liveApp { log.send($0) }
        let key = SampleSession.key("/slow?ms=2000")
        #expect(app.handle(.character("d"), theme: app.theme, redraw: {}) == .redraw)
        #expect(await eventually { app.snapshot.interface.status?.kind == .success })
        #expect(log.received.withLock { $0 } == [.purge(key: key)])
        #expect(app.snapshot.interface.status?.text == "purged 1 entry of \(key)")
    }

    /// Each key's result replaced the last on the status line: two marked rows purged said
    /// "purged 1 entry of" the second key only.
    @Test("a purge of several marked keys ends in one status line for them all")
    func markedPurge() async throws {
        let log = CommandLog()
        let app = try await liveApp { log.send($0) }
        // Every row the Entries view lists, marked; then d and y.
        for key in [Key.character("2"), .character("M"), .character("d"), .character("y")] {
            _ = app.handle(key, theme: app.theme, redraw: {})
        }
        #expect(await eventually { app.snapshot.interface.status?.kind == .success && app.snapshot.interface.status?.text.hasPrefix("purged ") == true })
        let keys = log.received.withLock { $0.count }
        #expect(keys > 1, "a session with several stored keys")
        let status = app.snapshot.interface.status?.text ?? ""
        #expect(status.hasSuffix(" (\(keys) keys)") && !status.contains("instance"), "\(status)")
    }

    @Test("A sender that throws becomes a failure on the status line")
    func commandFailure() async throws {
        let app = try await liveApp { _ in throw OriginDown() }
        _ = app.handle(.character("e"), theme: app.theme, redraw: {})
        #expect(await eventually {
            app.snapshot.interface.status?.kind == .failure && app.snapshot.interface.status?.text.hasPrefix("purgeExpired") == true
        })
        #expect(app.snapshot.interface.status?.text == "purgeExpired failed: connection refused")
    }

    /// A paste whose end marker never came swallowed every key after it, `q` too (a review of 27 November).
    @Test("a paste that does not end within a second of its last key ends, saying so; keys work again")
    func stalledPaste() async throws {
        let app = try await liveApp { _ in CommandResult(succeeded: true, message: "") }
        #expect(app.handle(.pasteStart, theme: app.theme, redraw: {}) == .continue)
        #expect(app.handle(.character("q"), theme: app.theme, redraw: {}) == .continue, "pasted text, not a key")
        try await Task.sleep(for: .milliseconds(1200))
        _ = app.frame(size: TerminalSize(columns: 120, rows: 40), theme: app.theme, redraw: {})
        #expect(app.snapshot.interface.status?.text.hasPrefix("a paste did not end") == true)
        #expect(app.handle(.character("q"), theme: app.theme, redraw: {}) == .quit)
    }

    @Test("t switches to the next built-in theme and names it; q quits")
    func themeAndQuit() async throws {
        let app = try await liveApp { _ in CommandResult(succeeded: true, message: "") }
        let next = app.handle(.character("t"), theme: try ThemeLoader.builtIn(named: "default"), redraw: {})
        if ThemeLoader.noColorRequested(in: ProcessInfo.processInfo.environment) {
            // The test runner may set NO_COLOR: then every theme would be painted mono.
            #expect(next == .redraw)
            #expect(app.snapshot.interface.status?.text.hasPrefix("NO_COLOR is set") == true)
        } else {
            #expect(next == .setTheme(try ThemeLoader.builtIn(named: "light")))
            #expect(app.snapshot.interface.status?.text == "theme: light")
        }
        #expect(app.handle(.character("q"), theme: app.theme, redraw: {}) == .quit)
    }

    @Test("A replay: keys steer the replayer, the header shows its position, commands are refused")
    func replay() throws {
        let replayer = SessionReplayer<TrafficModel>(events: SampleSession.events)
        let app = DashboardApp.replay(replayer, theme: try ThemeLoader.builtIn(named: "mono"))
        let size = TerminalSize(columns: 120, rows: 40)
        #expect(app.frame(size: size, theme: app.theme, redraw: {}).text.hasPrefix("CacheScope  REPLAY 1× 0:00/0:11 PAUSED"))
        _ = app.handle(.character("$"), theme: app.theme, redraw: {})
        #expect(app.snapshot.traffic.counters.requests == 10)
        #expect(app.snapshot.interface.status?.text == "at the end of the session")
        #expect(app.frame(size: size, theme: app.theme, redraw: {}).text.hasPrefix("CacheScope  REPLAY 1× 0:11/0:11 PAUSED"))
        _ = app.handle(.character("5"), theme: app.theme, redraw: {})
        #expect(app.snapshot.traffic.counters.requests == 5, "half way through the session's 11 s")
        _ = app.handle(.character("["), theme: app.theme, redraw: {})
        #expect(app.snapshot.traffic.eventsApplied == 26)
        _ = app.handle(.character(">"), theme: app.theme, redraw: {})
        #expect(app.snapshot.interface.status?.text == "speed 2×")
        _ = app.handle(.character("d"), theme: app.theme, redraw: {})
        #expect(app.snapshot.interface.status == StatusMessage(DashboardState.replayCannotSend, kind: .failure))
    }

    @Test("A playing replay advances with each frame until the end, then pauses")
    func replayPlays() async throws {
        var replayer = SessionReplayer<TrafficModel>(events: SampleSession.events)
        // 16×: a frame moves at most 0.25 s × 16 = 4 s of the 11 s session, so several frames are needed.
        replayer.speed = ReplaySpeed(multiplier: 16)!
        let app = DashboardApp.replay(replayer, theme: try ThemeLoader.builtIn(named: "default"))
        _ = app.handle(.character(" "), theme: app.theme, redraw: {})
        #expect(app.snapshot.interface.status?.text == "playing at 16×")
        let asksForMore = Mutex(false)
        let reachedEnd = await eventually {
            _ = app.frame(size: TerminalSize(columns: 80, rows: 24), theme: app.theme, redraw: { asksForMore.withLock { $0 = true } })
            return app.snapshot.traffic.eventsApplied == SampleSession.events.count
        }
        #expect(reachedEnd)
        #expect(asksForMore.withLock { $0 }, "while playing, each frame asks for the next")
        guard case .replay(let status) = app.snapshot.interface.mode else {
            Issue.record("not in replay mode")
            return
        }
        #expect(!status.isPlaying)
    }
}
