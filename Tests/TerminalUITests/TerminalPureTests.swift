import Foundation
import Testing
@testable import TerminalUI
import Synchronization

/// The parts of the terminal layer that need no terminal: colour-pair allocation, what the
/// painter draws for odd cells, restore-byte cleanup, error texts and the no-TTY refusal.
@Suite("Terminal without a terminal", .timeLimit(.minutes(1)))
struct TerminalPureTests {
    @Test("colour pairs are allocated once per combination and default/default is pair 0")
    func pairs() {
        var table = ColorPairTable(capacity: 4)
        var registered: [Int16] = []
        let register = { (number: Int16, _: ColorPairTable.Colors) -> Bool in registered.append(number); return true }
        let greenOnDefault = ColorPairTable.Colors(foreground: 2, background: -1)
        #expect(table.number(for: .init(foreground: -1, background: -1), register: register) == 0)
        #expect(table.number(for: greenOnDefault, register: register) == 1)
        #expect(table.number(for: greenOnDefault, register: register) == 1)
        #expect(table.number(for: .init(foreground: 0, background: 75), register: register) == 2)
        #expect(table.number(for: .init(foreground: 1, background: 75), register: register) == 3)
        #expect(table.number(for: .init(foreground: 3, background: 75), register: register) == 0)   // full
        #expect(registered == [1, 2, 3])
        var refusing = ColorPairTable(capacity: 10)
        #expect(refusing.number(for: greenOnDefault) { _, _ in false } == 0)
        #expect(refusing.numbers.isEmpty)
    }

    @Test("the painter draws controls as � and zero-width cells as spaces")
    func paintable() {
        #expect(Terminal.paintable("\u{1B}") == ("\u{FFFD}", 1))
        #expect(Terminal.paintable("\u{301}") == (" ", 1))
        #expect(Terminal.paintable("東") == ("東", 2))
        #expect(Terminal.paintable("a") == ("a", 1))
    }

    @Test("terminfo padding is removed from restore sequences")
    func padding() {
        #expect(TerminalRestoration.withoutPadding(Array("\u{1B}[?1049l$<5>\u{1B}[0m$<2/*>x".utf8)) == Array("\u{1B}[?1049l\u{1B}[0mx".utf8))
        #expect(TerminalRestoration.withoutPadding(Array("cost $5".utf8)) == Array("cost $5".utf8))
    }

    @Test("terminal errors suggest what to do, and no option only some commands have")
    func errorTexts() {
        #expect(TerminalError.notATerminal(stdinIsTerminal: true, stdoutIsTerminal: false).description
            == "the dashboard needs a terminal, but standard output is not one (redirected to a file or a pipe?); "
            + "run it in a terminal")
        #expect(TerminalError.notATerminal(stdinIsTerminal: false, stdoutIsTerminal: false).description
            .hasPrefix("the dashboard needs a terminal, but standard input and standard output are not one"))
        #expect(TerminalError.unknownTerminalType(term: "xterm-bogus").description
            == "cannot start the dashboard: the terminal type TERM=\"xterm-bogus\" is not in the terminfo database; "
            + "set TERM to a known type such as xterm-256color")
        #expect(TerminalError.unknownTerminalType(term: nil).description.contains("TERM is not set"))
    }

    @Test("exit statuses follow the shell convention")
    func exitStatus() {
        #expect(ScreenLoop.Exit.quit.status == 0)
        #expect(ScreenLoop.Exit.signal(SIGINT).status == 130)
        #expect(ScreenLoop.Exit.signal(SIGTERM).status == 143)
    }

    @Test("without a TTY the loop refuses and never calls curses",
          .enabled(if: isatty(STDIN_FILENO) == 0 || isatty(STDOUT_FILENO) == 0))
    func refusesWithoutTTY() async throws {
        let terminal = Terminal(environment: [:])
        let loop = ScreenLoop(terminal: terminal, theme: try ThemeLoader.builtIn(named: "mono"))
        for _ in 0..<2 {   // the second run proves the first cleaned up after itself
            await #expect {
                _ = try await loop.run(render: { Grid(size: $0) }, handleKey: { _ in .quit })
            } throws: { error in
                if case .notATerminal = error as? TerminalError { true } else { false }
            }
        }
        #expect(!terminal.isActive)
        #expect(terminal.size == TerminalSize(columns: 0, rows: 0))
        #expect(terminal.readKey(timeoutMilliseconds: 0) == nil)
        #expect(throws: TerminalError.notATerminal(
            stdinIsTerminal: isatty(STDIN_FILENO) == 1, stdoutIsTerminal: isatty(STDOUT_FILENO) == 1)) {
            try Terminal.checkInteractive()
        }
    }

    @Test("redraw requests and theme changes are recorded from any thread")
    func flags() async throws {
        let loop = ScreenLoop(terminal: Terminal(environment: [:]), theme: try ThemeLoader.builtIn(named: "default"))
        loop.flags.withLock { $0.redrawRequested = false }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { loop.requestRedraw() } }
        }
        #expect(loop.flags.withLock { $0.redrawRequested })
        loop.setTheme(try ThemeLoader.builtIn(named: "light"))
        #expect(loop.theme.name == "light")
        loop.stop()
        #expect(loop.flags.withLock { $0.stopRequested })
    }
}
