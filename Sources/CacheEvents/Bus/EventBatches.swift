import Synchronization

/// A subscription that collects events in a buffer the subscriber empties when it likes,
/// instead of waking it for every event: what the session recorder uses.
///
/// Publishing into it costs an array append under a lock (tens of nanoseconds), where an
/// `AsyncStream` consumer that keeps up is woken for every event (microseconds each, on the
/// publisher's side). The subscriber polls ``take()`` — every few milliseconds — and gets
/// everything published since, in `seq` order.
///
/// Lossless up to `bufferSize` events waiting; past that, events are counted and a
/// ``CacheEventKind/dropped(_:)`` event reports the loss once there is room again (as
/// ``EventDelivery/lossless(bufferSize:)`` does).
///
/// ```swift
/// let batches = bus.subscribeInBatches()
/// while !batches.isFinished {
///     for event in batches.take() { write(event) }
///     try await Task.sleep(for: .milliseconds(10))
/// }
/// ```
public final class EventBatches: Sendable {
    private struct State {
        var events: [CacheEvent] = []
        var pendingDrops = 0
        var finished = false
    }

    private let state = Mutex(State())
    private let bufferSize: Int
    private let onFinish: @Sendable () -> Void

    init(bufferSize: Int, onFinish: @escaping @Sendable () -> Void) {
        self.bufferSize = max(1, bufferSize)
        self.onFinish = onFinish
    }

    /// Everything buffered since the last call, oldest first (empty when nothing is waiting).
    public func take() -> [CacheEvent] {
        takeWithStatus().events
    }

    /// Everything buffered, and whether the subscription had finished when it was taken (then
    /// nothing more will come).
    func takeWithStatus() -> (events: [CacheEvent], finished: Bool) {
        state.withLock { state in
            var taken: [CacheEvent] = []
            swap(&taken, &state.events)
            // Start the next batch at this one's size, so publishers do not regrow it.
            if !state.finished { state.events.reserveCapacity(min(taken.count, 1 << 16)) }
            return (taken, state.finished)
        }
    }

    /// Whether ``finish()`` was called (or the bus finished) and every event was taken.
    public var isFinished: Bool {
        state.withLock { $0.finished && $0.events.isEmpty }
    }

    /// Stops the subscription: nothing more is added; what is buffered can still be taken.
    public func finish() {
        onFinish()
        markFinished()
    }

    func markFinished() {
        state.withLock { $0.finished = true }
    }

    /// Adds one event (called by the bus under its lock, in `seq` order).
    func append(_ event: CacheEvent) {
        state.withLock { state in
            guard !state.finished else { return }
            if state.pendingDrops > 0 {
                guard state.events.count < bufferSize else {
                    state.pendingDrops += 1
                    return
                }
                // The drops were the events just before this one, so the marker takes the last one's seq.
                state.events.append(CacheEvent(seq: event.seq - 1, time: event.time, kind: .dropped(Dropped(count: state.pendingDrops))))
                state.pendingDrops = 0
            }
            if state.events.count < bufferSize {
                state.events.append(event)
            } else {
                state.pendingDrops += 1
            }
        }
    }
}
