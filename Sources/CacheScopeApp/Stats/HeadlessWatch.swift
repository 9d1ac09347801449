import CacheAttach
public import CacheEvents
import SessionLog

/// `cachescope attach --no-ui`: another process's events without a dashboard, until the
/// publisher stops, its stats lines cannot be written, or SIGINT/SIGQUIT/SIGTERM/SIGHUP —
/// then the session summary, or with `--stats-every SECONDS --json` a JSON line every
/// interval (``StatsStream``) and a last one.
public enum HeadlessWatch {
    /// Watches `events`; returns the exit status: 0 when the publisher stopped, 128 + N after
    /// signal N, 1 when the connection failed (the summary or last line is still written).
    /// - Throws: `Console.WriteFailed` when the summary or the stats lines cannot be written to
    ///   standard output.
    public static func run<Events: AsyncSequence & Sendable>(_ events: Events, stats: StatsStream?) async throws -> Int32
    where Events.Element == CacheEvent {
        // The summary so far, and why the events ended if not because the publisher stopped.
        let reading = Task { () -> (SessionSummary, CommandFailure?) in
            var summary = SessionSummary()
            do {
                for try await event in events {
                    summary.apply(event)
                    stats?.apply(event)
                }
            } catch AttachError.closedByPeer {
                // The publisher exited or stopped publishing: the end of what there is to watch.
            } catch {
                return (summary, CommandFailure(command: "attach", error))
            }
            return (summary, nil)
        }
        let ticking = stats.map { stream in Task { await stream.tickUntilCancelled() } }
        // A signal cancels `ended`, and `wait` returns only once it has ended: the cancellation
        // must reach the reading, or the two wait on each other for ever.
        let ended = Task {
            await withTaskCancellationHandler {
                // Until the events end, or the stats lines (the watch's output) cannot be written.
                await StatsStream.run({ _ = await reading.value }, endingOnFailureOf: stats)
                reading.cancel()
            } onCancel: {
                reading.cancel()
            }
        }
        let signalled = await TerminationSignal.wait(orUntil: ended)
        reading.cancel()
        let (summary, failure) = await reading.value
        ticking?.cancel()
        // After a signal the connection's end is ours, not a failure.
        let failed = signalled == nil ? failure : nil
        failed?.report()
        if let stats {
            stats.finish(live: true)
            try stats.checkWritten(endedBy: signalled)
        } else {
            try Console.writeSummary(summary.text, endedBy: signalled)
        }
        return signalled.map { 128 + $0 } ?? (failed == nil ? 0 : CommandFailure.failureStatus)
    }
}
