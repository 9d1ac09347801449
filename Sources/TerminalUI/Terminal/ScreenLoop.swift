import Foundation
import Synchronization

/// The event loop that owns the terminal: one dedicated `Thread` reads keys, hands them to a
/// handler, and repaints — never the cooperative thread pool, because curses is not
/// thread-safe and `wget_wch` blocks.
///
/// Each turn it waits for a key for at most one frame interval (about 33 ms), then paints if
/// something asked for it: a key handler returning ``LoopAction/redraw``, any thread calling
/// ``requestRedraw()``, a resize, or one second passing since the last frame (so countdowns
/// move). Redraws are coalesced to at most one frame per interval (about 30 per second), and
/// an idle loop only wakes about 30 times a second to poll its flags (measured in tmux: 0.5%
/// of a core in a release build, 1.1% in a debug build, including the once-a-second frame).
/// A resize arrives as ``Key/resize``: the handler sees it, and the next frame is rendered at
/// the new size and repainted in full. Below `minimumSize` the loop shows
/// ``Grid/terminalTooSmall(size:minimum:)`` instead of calling `render`, and `q`/`Q` quit.
///
/// ```swift
/// let loop = ScreenLoop(terminal: Terminal(), theme: theme, minimumSize: .init(columns: 80, rows: 24))
/// Task { for await _ in events { loop.requestRedraw() } }
/// let exit = try await loop.run(render: { size in layout(model.snapshot(), size) },
///                               handleKey: { key in keyTable.apply(key) })
/// if case .signal = exit { Foundation.exit(exit.status) }
/// ```
public final class ScreenLoop: Sendable {
    /// Why ``run(render:handleKey:)`` returned.
    public enum Exit: Hashable, Sendable {
        /// A key handler returned ``LoopAction/quit`` or ``stop()`` was called.
        case quit
        /// SIGINT or SIGTERM arrived; the terminal has been restored.
        case signal(Int32)

        /// The conventional process exit status: 0 for ``quit``, 128 + signal number otherwise.
        public var status: Int32 {
            switch self {
            case .quit: 0
            case .signal(let number): 128 + number
            }
        }
    }

    struct Flags {
        var redrawRequested = true
        var stopRequested = false
        var running = false
        var theme: Theme
        /// The terminal turned out to have no colours: every theme is painted as `mono`.
        var colourless = false
    }

    /// The terminal this loop paints on; the loop starts and stops it.
    public let terminal: Terminal
    /// Below this size the loop shows ``Grid/terminalTooSmall(size:minimum:)`` instead of
    /// calling `render`; `nil` renders at any size.
    public let minimumSize: TerminalSize?
    /// The shortest time between two frames (default 33 ms, about 30 frames per second).
    public let frameInterval: Duration
    /// The longest time between two frames even when nothing asked for one (default 1 s).
    public let refreshInterval: Duration

    let flags: Mutex<Flags>

    /// Creates a loop; nothing happens until ``run(render:handleKey:)``.
    public init(
        terminal: Terminal, theme: Theme, minimumSize: TerminalSize? = nil,
        frameInterval: Duration = .milliseconds(33), refreshInterval: Duration = .seconds(1)
    ) {
        self.terminal = terminal
        self.minimumSize = minimumSize
        self.frameInterval = frameInterval
        self.refreshInterval = refreshInterval
        self.flags = Mutex(Flags(theme: theme))
    }

    /// The theme the next frame is painted with.
    public var theme: Theme { flags.withLock { $0.theme } }

    /// Asks for a new frame soon (within one frame interval). Callable from any thread or
    /// task; many calls before the next frame produce one frame.
    public func requestRedraw() {
        flags.withLock { $0.redrawRequested = true }
    }

    /// Changes the theme from any thread; a full repaint follows. On a terminal without
    /// colours the theme stays `mono` (``withoutColour(_:)``).
    public func setTheme(_ theme: Theme) {
        flags.withLock {
            $0.theme = $0.colourless ? Self.withoutColour(theme) : theme
            $0.redrawRequested = true
        }
    }

    /// `theme`, or `mono` when `theme` needs colours: on a terminal without any (`TERM=vt220`)
    /// a colour theme's roles look alike — the selected row among them — while `mono` tells
    /// them apart with bold, underline and reverse (themes.md).
    static func withoutColour(_ theme: Theme) -> Theme {
        guard theme.usesColor, let mono = try? ThemeLoader.builtIn(named: ThemeLoader.monoName) else { return theme }
        return mono
    }

    /// Ends ``run(render:handleKey:)`` within one frame interval, from any thread.
    public func stop() {
        flags.withLock { $0.stopRequested = true }
    }

    /// Starts the terminal on a new thread, runs the loop there until a handler quits,
    /// ``stop()`` is called or SIGINT/SIGTERM arrives, restores the terminal, and returns.
    ///
    /// - Parameters:
    ///   - render: Builds the frame for a terminal size; called on the loop's thread.
    ///   - handleKey: Applies a key and says what to redo; called on the loop's thread.
    /// - Returns: Why the loop ended; the terminal is already restored.
    /// - Throws: ``TerminalError`` when the terminal cannot be started.
    public func run(
        render: @escaping @Sendable (TerminalSize) -> Grid,
        handleKey: @escaping @Sendable (Key) -> LoopAction
    ) async throws(TerminalError) -> Exit {
        let alreadyRunning = flags.withLock { flags in
            defer { flags.running = true; flags.stopRequested = false }
            return flags.running
        }
        guard !alreadyRunning else { throw .loopAlreadyRunning }
        await SignalWatcher.shared.install()   // before the terminal starts: see SignalWatcher
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Exit, TerminalError>, Never>) in
            let thread = Thread { [self] in
                Thread.current.name = "TerminalUI.loop"   // pthread names hold 15 characters
                continuation.resume(returning: runOnCurrentThread(render: render, handleKey: handleKey))
            }
            thread.start()
        }
        flags.withLock { $0.running = false }
        return try result.get()
    }

    /// Start, loop, and always stop — on the thread that owns curses.
    private func runOnCurrentThread(
        render: @escaping (TerminalSize) -> Grid, handleKey: @escaping (Key) -> LoopAction
    ) -> Result<Exit, TerminalError> {
        do {
            try terminal.start()
        } catch {
            return .failure(error)
        }
        if terminal.colorCount == 0 {
            flags.withLock {
                $0.colourless = true
                $0.theme = Self.withoutColour($0.theme)
            }
        }
        terminal.setLoopActive(true)
        defer {
            terminal.setLoopActive(false)
            terminal.stop()
        }
        var runner = LoopRunner(loop: self, render: render, handleKey: handleKey)
        return .success(runner.run())
    }
}
