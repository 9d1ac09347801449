#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TerminalUI
import UnixSignals

/// Waits for SIGINT, SIGQUIT or SIGTERM — the ways a user stops a headless command (Ctrl-C,
/// `Ctrl-\`, `kill`) — or SIGHUP (the terminal it ran in was closed), with
/// swift-service-lifecycle's `UnixSignalsSequence`. (Left to the Swift runtime, SIGQUIT would
/// print a backtrace and end the process before a recording is complete.)
/// SIGHUP is left alone when it was ignored at the start (`nohup`), so the command goes on.
///
/// While a wait is in progress the signals do not end the process; once it returns, their
/// default action is back, so a second Ctrl-C ends a shutdown that hangs.
public enum TerminationSignal {
    /// Waits for the first SIGINT, SIGQUIT, SIGTERM or SIGHUP and returns its number; `nil` when the
    /// calling task is cancelled first.
    public static func wait() async -> Int32? {
        // libdispatch, under UnixSignals, installs its own handler for a watched signal and
        // never removes it: put back what was there before, so the next signal acts again.
        let previous = [SIGINT, SIGQUIT, SIGTERM, SIGHUP].map { number in
            var action = sigaction()
            sigaction(number, nil, &action)
            return (number, action)
        }
        let hangUpIgnored = previous.contains { $0.0 == SIGHUP && SignalDisposition.isIgnored($0.1) }
        var received: Int32?
        defer {
            for (number, action) in previous {
                // A closed terminal sends SIGHUP more than once (the shell, then the kernel):
                // after the first, the next must not end the shutdown that saves the recording,
                // so it is ignored from here, never restored in between.
                if number == SIGHUP, received == SIGHUP {
                    signal(SIGHUP, SIG_IGN)
                    continue
                }
                var action = action
                sigaction(number, &action, nil)
            }
        }
        let trapped: [UnixSignal] = hangUpIgnored ? [.sigint, .sigquit, .sigterm] : [.sigint, .sigquit, .sigterm, .sighup]
        for await signal in await UnixSignalsSequence(trapping: trapped) {
            received = signal.rawValue
            return signal.rawValue
        }
        return nil
    }

    /// Waits for SIGINT, SIGQUIT, SIGTERM or SIGHUP, or for `task` to finish, whichever comes first.
    ///
    /// A signal cancels `task` and waits for it to end. Returns the signal's number, or `nil`
    /// when `task` finished first.
    public static func wait(orUntil task: Task<Void, Never>) async -> Int32? {
        await withTaskGroup(of: Int32?.self) { group in
            group.addTask { await wait() }
            group.addTask {
                await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
