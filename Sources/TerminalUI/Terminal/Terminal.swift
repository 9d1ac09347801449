import CNcurses
public import Foundation
import Synchronization

/// The one object that owns the real terminal through ncurses: start and stop, size,
/// painting a ``Grid`` and reading ``Key``s.
///
/// Usually ``ScreenLoop`` drives it from its own thread and you never call these methods
/// yourself. Every curses call happens while holding one internal lock, so a `Terminal` is
/// safe to share, but curses is still meant to be used from one thread (the loop's).
///
/// Restoring the terminal is guaranteed on every way out: ``stop()``, a thrown error (the
/// loop stops it), SIGINT and SIGTERM (watched with swift-service-lifecycle's
/// `UnixSignalsSequence` from the first ``ScreenLoop/run(render:handleKey:)`` on: they end the
/// loop, or restore and then take their usual effect), `exit()` (an `atexit` fallback) and, as
/// best effort, crashes (see `TerminalRestoration`).
///
/// ```swift
/// try Terminal.checkInteractive()   // before anything else: fails fast with a --no-ui hint
/// let loop = ScreenLoop(terminal: Terminal(), theme: theme)
/// ```
public final class Terminal: Sendable {
    /// Mutable curses state; the lock also serialises every curses call.
    struct State {
        var screen: OpaquePointer?
        var window: UnsafeMutablePointer<WINDOW>?
        var colorCount = 0
        var defaultColorsAvailable = false
        var pairs = ColorPairTable()
        var pendingSignal: Int32?
        var loopActive = false
    }

    let state = Mutex(State())
    let environment: [String: String]

    /// Creates a terminal that is not started yet. `environment` supplies `TERM` (for error
    /// messages) and `NO_COLOR` (paint without colour).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// Throws ``TerminalError/notATerminal(stdinIsTerminal:stdoutIsTerminal:)`` unless both
    /// standard input and standard output are terminals. Cheap; no curses call.
    public static func checkInteractive() throws(TerminalError) {
        let stdinIsTerminal = isatty(STDIN_FILENO) == 1
        let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
        guard stdinIsTerminal, stdoutIsTerminal else {
            throw .notATerminal(stdinIsTerminal: stdinIsTerminal, stdoutIsTerminal: stdoutIsTerminal)
        }
    }

    /// Whether ``start()`` succeeded and ``stop()`` has not run yet.
    public var isActive: Bool { state.withLock { $0.screen != nil } }

    /// Colours available for painting: 256, 16, 8, or 0 (no colour: the terminal has none, or
    /// `NO_COLOR` is set). 0 before ``start()``.
    public var colorCount: Int { state.withLock { $0.colorCount } }

    /// The current size in cells (0×0 before ``start()``).
    public var size: TerminalSize {
        state.withLock { state in
            guard let window = state.window else { return TerminalSize(columns: 0, rows: 0) }
            return TerminalSize(columns: Int(getmaxx(window)), rows: Int(getmaxy(window)))
        }
    }

    // MARK: Start and stop

    /// Takes over the terminal: checks for a TTY, sets a UTF-8 locale, `newterm`, input modes,
    /// colours, and installs the signal, exit and crash restoration.
    /// - Throws: ``TerminalError`` with a `--no-ui` hint when there is no terminal or `TERM`
    ///   is unknown, ``TerminalError/cannotDraw(term:)`` when its type cannot move the cursor
    ///   (`dumb`), or when a terminal is already active in this process.
    public func start() throws(TerminalError) {
        try Self.checkInteractive()
        try state.withLock { (state) throws(TerminalError) in
            guard state.screen == nil, TerminalRestoration.claim() else { throw .alreadyActive }
            TerminalRestoration.saveTerminalModes()
            Self.selectUTF8Locale()
            SignalWatcher.shared.watch(self)   // before newterm: see SignalWatcher
            guard let screen = newterm(nil, cn_stdout(), cn_stdin()), let window = cn_stdscr() else {
                SignalWatcher.shared.unwatch(self)
                TerminalRestoration.release()
                throw .unknownTerminalType(term: environment["TERM"])
            }
            guard cn_can_address_cursor() != 0 else {
                endwin()
                delscreen(screen)
                SignalWatcher.shared.unwatch(self)
                TerminalRestoration.release()
                throw .cannotDraw(term: environment["TERM"] ?? "")
            }
            state.screen = screen
            state.window = window
            state.pendingSignal = nil
            cbreak()
            noecho()
            nonl()
            keypad(window, true)
            define_key("\u{1B}[200~", KeyDecoder.pasteStartCode)
            define_key("\u{1B}[201~", KeyDecoder.pasteEndCode)
            Self.writeRaw(KeyDecoder.bracketedPasteOn)
            curs_set(0)
            set_escdelay(25)
            wtimeout(window, 100)
            configureColors(&state)
            TerminalRestoration.arm()
        }
    }

    /// Gives the terminal back: cursor on, `endwin`; SIGINT and SIGTERM take their usual effect
    /// again. Safe to call more than once and from any thread.
    public func stop() {
        state.withLock { state in
            guard let screen = state.screen else { return }
            TerminalRestoration.disarm()
            Self.writeRaw(KeyDecoder.bracketedPasteOff)
            curs_set(1)
            endwin()
            delscreen(screen)
            state.screen = nil
            state.window = nil
            state.pairs = ColorPairTable()
            TerminalRestoration.release()
        }
        SignalWatcher.shared.unwatch(self)
    }

    // MARK: Setup helpers

    /// Writes a mode setting straight to the terminal (ncurses has no call for it).
    static func writeRaw(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }

    /// Uses the user's locale, but falls back to C.UTF-8 for character handling when that
    /// locale is not UTF-8 (a bare `LANG=C` tmux or CI shell), so wide output still works.
    private static func selectUTF8Locale() {
        setlocale(LC_ALL, "")
        if let codeset = nl_langinfo(nl_item(CODESET)), String(cString: codeset) != "UTF-8" {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
    }

    private func configureColors(_ state: inout State) {
        state.colorCount = 0
        guard has_colors(), environment["NO_COLOR"] == nil, start_color() == OK else { return }
        state.defaultColorsAvailable = use_default_colors() == OK
        let colors = min(Int(cn_colors()), 256)
        state.colorCount = colors >= 256 ? 256 : colors >= 16 ? 16 : colors >= 8 ? 8 : 0
        state.pairs = ColorPairTable(capacity: min(Int(cn_color_pairs()), Int(Int16.max)))
    }

    /// Called by ``SignalWatcher`` for SIGINT, SIGQUIT, SIGTERM and SIGHUP. Returns `true` when a running
    /// loop will notice the signal and end; otherwise restores the terminal and returns
    /// `false`, so the watcher applies the signal's usual action.
    func handleSignal(_ signalNumber: Int32) -> Bool {
        let loopActive = state.withLock { state -> Bool in
            guard state.screen != nil else { return false }
            state.pendingSignal = signalNumber
            return state.loopActive
        }
        if loopActive { return true }
        stop()
        return false
    }
}
