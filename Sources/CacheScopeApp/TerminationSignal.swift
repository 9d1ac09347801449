#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UnixSignals

/// Waits for SIGINT or SIGTERM — the two ways a user stops a headless command — with
/// swift-service-lifecycle's `UnixSignalsSequence`.
///
/// While a wait is in progress the signals do not end the process; once it returns, their
/// default action is back, so a second Ctrl-C ends a shutdown that hangs.
public enum TerminationSignal {
    /// Waits for the first SIGINT or SIGTERM and returns its number; `nil` when the calling
    /// task is cancelled first.
    public static func wait() async -> Int32? {
        // libdispatch, under UnixSignals, installs its own handler for a watched signal and
        // never removes it: put back what was there before, so the next signal acts again.
        let previous = [SIGINT, SIGTERM].map { number in
            var action = sigaction()
            sigaction(number, nil, &action)
            return (number, action)
        }
        defer {
            for (number, action) in previous {
                var action = action
                sigaction(number, &action, nil)
            }
        }
        for await signal in await UnixSignalsSequence(trapping: .sigint, .sigterm) {
            return signal.rawValue
        }
        return nil
    }

    /// Waits for SIGINT or SIGTERM, or for `task` to finish, whichever comes first.
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
