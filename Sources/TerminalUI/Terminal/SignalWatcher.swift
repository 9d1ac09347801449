import Dispatch
import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into calls on the active ``Terminal`` instead of killing the
/// process with the screen still in curses mode.
///
/// Why it lives for the whole process: on Linux a `DispatchSource` signal source installs
/// libdispatch's own handler the first time a signal is watched and never again, so watching
/// per terminal session breaks the second session. Instead the first ``Terminal/start()``
/// installs one source per signal for good, and when no terminal is active the watcher does
/// what the signal did before it took over: nothing if it was ignored, otherwise it restores
/// that disposition and re-raises, so Ctrl-C kills an idle process as usual.
///
/// It also matters that this happens before `newterm`: ncurses installs handlers of its own
/// (which `exit(1)`) when it finds SIGINT or SIGTERM at their default action.
final class SignalWatcher: Sendable {
    static let shared = SignalWatcher()
    private static let signals = [SIGINT, SIGTERM]

    private struct State {
        var sources: [any DispatchSourceSignal] = []
        var previous: [Int32: sigaction] = [:]
        var target: Terminal?
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "TerminalUI.signals")

    private init() {}

    /// Routes SIGINT and SIGTERM to `terminal` from now on, installing the sources once.
    func watch(_ terminal: Terminal) {
        state.withLock { state in
            state.target = terminal
            guard state.sources.isEmpty else { return }
            for signalNumber in Self.signals {
                var previous = sigaction()
                sigaction(signalNumber, nil, &previous)
                state.previous[signalNumber] = previous
                signal(signalNumber, SIG_IGN)   // until libdispatch's handler replaces it
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
                source.setEventHandler { [weak self] in self?.deliver(signalNumber) }
                source.resume()
                state.sources.append(source)
            }
        }
    }

    /// Stops routing signals to `terminal` (if it is the current target).
    func unwatch(_ terminal: Terminal) {
        state.withLock { state in
            if state.target === terminal { state.target = nil }
        }
    }

    private func deliver(_ signalNumber: Int32) {
        let target = state.withLock { $0.target }
        if let target, target.handleSignal(signalNumber) { return }
        actAsBefore(signalNumber)
    }

    /// No screen loop will react: behave as the signal's disposition before we took it over.
    private func actAsBefore(_ signalNumber: Int32) {
        guard var previous = state.withLock({ $0.previous[signalNumber] }), !Self.isIgnored(previous) else { return }
        sigaction(signalNumber, &previous, nil)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, signalNumber)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)   // libdispatch blocks it in its threads
        raise(signalNumber)
    }

    private static func isIgnored(_ action: sigaction) -> Bool {
        #if os(Linux)
        let handler = action.__sigaction_handler.sa_handler
        #else
        let handler = action.__sigaction_u.__sa_handler
        #endif
        guard let handler else { return false }   // nil is SIG_DFL
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
