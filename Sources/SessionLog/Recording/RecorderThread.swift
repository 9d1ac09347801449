import CacheEvents
import TrafficFilter
import Foundation
import Synchronization
import HTTPCaching

/// The recorder's writer: a dedicated thread that takes the events published since it last
/// looked, encodes them into the sink, flushes at least every flush interval, and sleeps a
/// poll interval when there was nothing to do. It ends once the subscription is finished and
/// drained, handing over the summary of everything it wrote.
///
/// Why a thread and not a task: file writes block, and a recorder must keep its promise of
/// "at most a second lost" even when the app keeps every cooperative thread busy.
final class RecorderThread: Sendable {
    private struct Completion {
        var summary: SessionSummary?
        var waiters: [CheckedContinuation<SessionSummary, Never>] = []
    }

    private let completion = Mutex(Completion())

    /// `selection`, when given, decides which events are written (whole matching requests);
    /// `failed` is told the reason once, when the first write fails.
    init(
        batches: EventSubscription, sink: RecorderSink, flushInterval: Duration, pollInterval: Duration,
        selection: RequestSelection? = nil, failed: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        let thread = Thread { [self] in
            let summary = Self.run(
                batches: batches, sink: sink, flushInterval: flushInterval, pollInterval: pollInterval, selection: selection,
                failed: failed)
            let waiters = completion.withLock { state in
                state.summary = summary
                defer { state.waiters.removeAll() }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(returning: summary) }
        }
        thread.name = "cachescope-recorder"
        thread.start()
    }

    /// Waits until the thread has written everything and stopped; returns the summary.
    func finished() async -> SessionSummary {
        await withCheckedContinuation { continuation in
            let done = completion.withLock { state -> SessionSummary? in
                if let summary = state.summary { return summary }
                state.waiters.append(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    private static func run(
        batches: EventSubscription, sink: RecorderSink, flushInterval: Duration, pollInterval: Duration,
        selection: RequestSelection?, failed: @Sendable (String) -> Void
    ) -> SessionSummary {
        var selection = selection
        var failureTold = false
        let clock = ContinuousClock()
        let pause = max(0.001, pollInterval.inSeconds)
        var summary = SessionSummary()
        var lastFlush = clock.now
        while true {
            let finished = batches.isFinished
            let taken = batches.take()
            var events = selection?.select(taken) ?? taken
            if finished, selection != nil { events += selection?.finish() ?? [] }
            if !events.isEmpty {
                if sink.append(contentsOf: events) { sink.flush() }
                for event in events { summary.apply(event) }
            }
            if finished { break }
            if clock.now - lastFlush >= flushInterval {
                sink.flush()
                lastFlush = clock.now
                if !failureTold, let failure = sink.failure {
                    failureTold = true
                    failed(failure)
                }
            }
            if taken.isEmpty { Thread.sleep(forTimeInterval: pause) }
        }
        sink.flush()
        return summary
    }
}
