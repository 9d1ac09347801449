import Synchronization
import UnixSignals

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns SIGINT, SIGQUIT (`Ctrl-\`), SIGTERM and SIGHUP (the terminal closed) into calls on the
/// active ``Terminal`` instead of killing the
/// process with the screen still in curses mode, with swift-service-lifecycle's
/// `UnixSignalsSequence` (as `TerminationSignal` does for the headless commands).
///
/// Why one sequence for the whole process rather than one per terminal session: on Linux
/// libdispatch (under `UnixSignalsSequence`) installs its own handler the first time a signal
/// is watched and never removes it, so once a per-session sequence ended, signals would be
/// swallowed instead of ending the process, and a later session would be handed the ones that
/// arrived in between. Instead the first ``ScreenLoop/run(render:handleKey:)`` installs one
/// sequence for good, and when no terminal is active the watcher does what the signal did
/// before it took over: nothing if it was ignored, otherwise it restores that disposition and
/// re-raises, so Ctrl-C kills an idle process as usual — including a second Ctrl-C after the
/// dashboard gave the terminal back, during a shutdown that hangs.
///
/// It also matters that this happens before `newterm`: ncurses installs handlers of its own
/// (which `exit(1)`) when it finds SIGINT or SIGTERM at their default action.
final class SignalWatcher: Sendable {
    static let shared = SignalWatcher()
    /// SIGQUIT among them: left to the Swift runtime, `Ctrl-\` printed a backtrace over the
    /// dashboard and froze it while it did.
    private static let signals: [UnixSignal] = [.sigint, .sigquit, .sigterm, .sighup]

    private struct State {
        /// Saves the previous dispositions and registers the sequence; done once.
        var installation: Task<Void, Never>?
        var previous: [Int32: sigaction] = [:]
        var target: Terminal?
        /// When a hang-up last ended a dashboard.
        var hangUpHandled: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    private init() {}

    /// Starts watching SIGINT, SIGQUIT, SIGTERM and SIGHUP for the rest of the process, the first time it is
    /// called; returns once the handlers are in place (at once after the first time).
    func install() async {
        let installation = state.withLock { state in
            if let installation = state.installation { return installation }
            let installation = Task { await self.trapSignals() }
            state.installation = installation
            return installation
        }
        await installation.value
    }

    /// Routes SIGINT, SIGQUIT, SIGTERM and SIGHUP to `terminal` from now on (once ``install()`` has run).
    func watch(_ terminal: Terminal) {
        state.withLock { $0.target = terminal }
    }

    /// Stops routing signals to `terminal` (if it is the current target).
    func unwatch(_ terminal: Terminal) {
        state.withLock { state in
            if state.target === terminal { state.target = nil }
        }
    }

    private func trapSignals() async {
        state.withLock { state in
            for signal in Self.signals {
                var previous = sigaction()
                sigaction(signal.rawValue, nil, &previous)
                state.previous[signal.rawValue] = previous
            }
        }
        // Returns once the handlers are registered; the sequence never finishes.
        let signals = await UnixSignalsSequence(trapping: Self.signals)
        Task {
            for await signal in signals { self.deliver(signal.rawValue) }
        }
    }

    private func deliver(_ signalNumber: Int32) {
        let target = state.withLock { $0.target }
        if let target, target.handleSignal(signalNumber) {
            if signalNumber == SIGHUP { noteHangUp() }
            return
        }
        // A closed terminal sends SIGHUP more than once (tmux, then the kernel as the shell
        // exits): the first ended the dashboard, and the process is saving its recording, which
        // a repeat soon after must not cut short. A SIGHUP later than that acts as before.
        if signalNumber == SIGHUP, let handled = state.withLock({ $0.hangUpHandled }), ContinuousClock.now - handled < Self.hangUpRepeatWindow {
            return
        }
        actAsBefore(signalNumber)
    }

    /// Notes that a hang-up ended a dashboard — its SIGHUP, or its terminal's reads failing
    /// first (``LoopRunner``), in which case the SIGHUP is still on its way: a SIGHUP within
    /// ``hangUpRepeatWindow`` of this is taken as that hang-up's and dropped.
    func noteHangUp() {
        state.withLock { $0.hangUpHandled = .now }
    }

    /// How long after a SIGHUP that ended a dashboard another one is taken as its repeat.
    private static let hangUpRepeatWindow: Duration = .seconds(10)

    /// No screen loop will react: behave as the signal's disposition before we took it over.
    private func actAsBefore(_ signalNumber: Int32) {
        guard var previous = state.withLock({ $0.previous[signalNumber] }), !SignalDisposition.isIgnored(previous) else { return }
        sigaction(signalNumber, &previous, nil)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, signalNumber)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)   // libdispatch blocks it in its threads
        raise(signalNumber)
    }
}
