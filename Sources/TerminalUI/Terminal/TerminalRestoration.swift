import CNcurses
import Foundation
import Synchronization

/// Process-wide safety nets that give the terminal back when the normal ``Terminal/stop()``
/// cannot run: `exit()` without a stop, and crashes.
///
/// **Crashes (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP).** `endwin()` is not
/// async-signal-safe (it takes locks and may allocate), so calling it from a crash handler
/// could deadlock. Instead, while curses is active, the handler uses only async-signal-safe
/// calls: it `write`s bytes precomputed from terminfo when the terminal started (`sgr0`,
/// `op`, `cnorm`, `rmkx`, `rmcup`: attributes off, cursor on, keypad off, leave the alternate
/// screen) and `tcsetattr`s the terminal modes saved before `newterm`. The trade-off: if the
/// crash happened halfway through an escape sequence, the first restore bytes may be eaten,
/// and the state lives in plain static storage read without locks (written only before the
/// handlers are installed). Then it puts back the previous handler (the Swift runtime's
/// backtracer, or the default action) and re-raises, so the crash is still reported.
///
/// **exit().** An `atexit` handler calls `curs_set(1)` and `endwin()` when curses is still
/// active.
enum TerminalRestoration {
    private static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]
    private static let owned = Atomic<Bool>(false)
    private static let armed = Atomic<Bool>(false)
    private static let atExitRegistered = Atomic<Bool>(false)

    // Written only while no crash handler is installed (under Terminal's lock), read by the
    // handlers; raw pointers so the handler does no Swift exclusivity bookkeeping.
    private nonisolated(unsafe) static let savedModes = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    private nonisolated(unsafe) static var hasSavedModes = false
    private static let restoreCapacity = 256
    private nonisolated(unsafe) static let restoreBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    private nonisolated(unsafe) static var restoreCount = 0
    private nonisolated(unsafe) static let previousActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)

    // MARK: Ownership (one active Terminal per process)

    static func claim() -> Bool {
        owned.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    static func release() {
        owned.store(false, ordering: .releasing)
    }

    // MARK: Arming

    /// Saves the terminal modes as the shell left them; call before `newterm`.
    static func saveTerminalModes() {
        hasSavedModes = tcgetattr(STDIN_FILENO, savedModes) == 0
    }

    /// Precomputes the restore bytes from terminfo (needs `newterm` done) and installs the
    /// crash handlers and the `atexit` fallback.
    static func arm() {
        var bytes = KeyDecoder.bracketedPasteOff
        for capability in ["sgr0", "op", "cnorm", "rmkx", "rmcup"] {
            guard let value = cn_tigetstr(capability) else { continue }
            bytes += withoutPadding(Array(String(cString: value).utf8))
        }
        restoreCount = min(bytes.count, restoreCapacity)
        bytes.withUnsafeBufferPointer { restoreBytes.update(from: $0.baseAddress!, count: restoreCount) }
        for signalNumber in crashSignals {
            var action = sigaction()
            #if os(Linux)
            action.__sigaction_handler.sa_handler = { TerminalRestoration.crashed($0) }
            #else
            action.__sigaction_u.__sa_handler = { TerminalRestoration.crashed($0) }
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signalNumber, &action, previousActions + Int(signalNumber))
        }
        armed.store(true, ordering: .releasing)
        if atExitRegistered.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged {
            atexit { TerminalRestoration.exiting() }
        }
    }

    /// Removes the crash handlers (putting the previous ones back); call before `endwin`.
    static func disarm() {
        guard armed.exchange(false, ordering: .acquiringAndReleasing) else { return }
        for signalNumber in crashSignals {
            sigaction(signalNumber, previousActions + Int(signalNumber), nil)
        }
    }

    // MARK: Handlers

    private static func crashed(_ signalNumber: Int32) {
        if armed.load(ordering: .relaxed) {
            _ = write(STDOUT_FILENO, restoreBytes, restoreCount)
            if hasSavedModes { tcsetattr(STDIN_FILENO, TCSANOW, savedModes) }
        }
        sigaction(signalNumber, previousActions + Int(signalNumber), nil)
        raise(signalNumber)   // delivered on return, to the previous handler or the default action
    }

    private static func exiting() {
        guard armed.load(ordering: .acquiring), !isendwin() else { return }
        Terminal.writeRaw(KeyDecoder.bracketedPasteOff)
        curs_set(1)
        endwin()
    }

    /// Drops terminfo padding specifications (`$<5>`, `$<2/*>`) that only curses interprets.
    static func withoutPadding(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "$"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "<"),
               let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) {
                index = close + 1
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }
}
