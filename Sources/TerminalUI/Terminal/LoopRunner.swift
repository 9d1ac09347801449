import Foundation
import Synchronization

/// One run of a ``ScreenLoop`` on its thread: the wait → keys → paint cycle and its timing.
struct LoopRunner {
    let loop: ScreenLoop
    let render: (TerminalSize) -> Grid
    let handleKey: (Key) -> LoopAction
    private let clock = ContinuousClock()
    private var lastFrame: ContinuousClock.Instant?
    private var fullRepaint = true

    /// Keys read back-to-back before painting, so a held-down key cannot starve the screen.
    private static let maximumKeysPerFrame = 64

    init(loop: ScreenLoop, render: @escaping (TerminalSize) -> Grid, handleKey: @escaping (Key) -> LoopAction) {
        self.loop = loop
        self.render = render
        self.handleKey = handleKey
    }

    mutating func run() -> ScreenLoop.Exit {
        let wait = Int(loop.frameInterval.components.seconds * 1000
            + loop.frameInterval.components.attoseconds / 1_000_000_000_000_000)
        while true {
            if let exit = pendingExit() { return exit }
            paintIfDue()
            var timeout = max(1, wait)
            for _ in 0..<Self.maximumKeysPerFrame {
                let asked = clock.now
                guard let key = loop.terminal.readKey(timeoutMilliseconds: timeout) else {
                    if timeout > 0, clock.now - asked < .milliseconds(1), let exit = inputFailed() { return exit }
                    break
                }
                if let exit = apply(key) { return exit }
                timeout = 0   // drain what is already typed, then paint
            }
        }
    }

    /// The terminal answered a wait for a key at once, without one: reading failed. When the
    /// terminal was hung up, the loop ends as for SIGHUP (nobody can type `q` any more);
    /// otherwise (the process is in a background process group, say) it waits one frame
    /// before asking again, rather than spinning.
    private func inputFailed() -> ScreenLoop.Exit? {
        if loop.terminal.isHungUp {
            // The terminal's SIGHUP may come after this: once the dashboard is gone, it must not
            // end the shutdown that saves the recording.
            SignalWatcher.shared.noteHangUp()
            return .signal(SIGHUP)
        }
        Thread.sleep(forTimeInterval: Double(loop.frameInterval.components.attoseconds) / 1e18 + Double(loop.frameInterval.components.seconds))
        return nil
    }

    private func pendingExit() -> ScreenLoop.Exit? {
        if let signalNumber = loop.terminal.pendingSignal { return .signal(signalNumber) }
        return loop.flags.withLock { $0.stopRequested } ? .quit : nil
    }

    private mutating func apply(_ key: Key) -> ScreenLoop.Exit? {
        if key == .resize { fullRepaint = true }
        if isTooSmall, key == .character("q") || key == .character("Q") { return .quit }
        switch handleKey(key) {
        case .continue: break
        case .redraw: loop.requestRedraw()
        case .quit: return .quit
        case .setTheme(let theme):
            loop.setTheme(theme)
            fullRepaint = true
        }
        return nil
    }

    private var isTooSmall: Bool {
        guard let minimum = loop.minimumSize else { return false }
        return !Grid.fits(loop.terminal.size, minimum: minimum)
    }

    private mutating func paintIfDue() {
        let now = clock.now
        let (requested, theme) = loop.flags.withLock { ($0.redrawRequested, $0.theme) }
        if let lastFrame {
            let sinceLast = now - lastFrame
            let wanted = requested || fullRepaint || sinceLast >= loop.refreshInterval
            guard wanted, sinceLast >= loop.frameInterval || fullRepaint else { return }
        }
        loop.flags.withLock { $0.redrawRequested = false }
        let size = loop.terminal.size
        let grid: Grid
        if let minimum = loop.minimumSize, !Grid.fits(size, minimum: minimum) {
            grid = .terminalTooSmall(size: size, minimum: minimum)
        } else {
            grid = render(size)
        }
        loop.terminal.paint(grid, theme: theme, fullRepaint: fullRepaint)
        fullRepaint = false
        lastFrame = now
    }
}
