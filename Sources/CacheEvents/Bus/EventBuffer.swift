import Synchronization

/// The buffer behind one ``EventSubscription``: the bus appends under its lock, the
/// subscriber takes everything at once.
///
/// Event-driven: an idle subscriber waits on a continuation, which the first event published
/// after it started waiting resumes; events published while it is busy accumulate and arrive
/// as one batch. With no traffic nothing wakes. With a batching interval, a subscriber that
/// has just received a batch waits that long before it looks again, so under load publishers
/// find nobody to wake and only append.
final class EventBuffer: Sendable {
    private struct State {
        var events: [CacheEvent] = []
        var pendingDrops = 0
        /// The last event not delivered: the `dropped` marker takes its place (seq and time).
        var lastDropped: (seq: UInt64, time: Double) = (0, 0)
        var finished = false
        var waiter: CheckedContinuation<[CacheEvent]?, Never>?
        var lastDelivery: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    private let capacity: Int
    private let onFinish: @Sendable () -> Void

    init(capacity: Int, onFinish: @escaping @Sendable () -> Void) {
        self.capacity = max(1, capacity)
        self.onFinish = onFinish
    }

    /// Adds one event (called by the bus under its lock, in `seq` order), taking it over;
    /// past `capacity` events are counted and a `dropped` event takes their place once there
    /// is room.
    func append(_ event: consuming CacheEvent) {
        // An optional, so that the locked closure can move the event into the array.
        var pending = Optional(consume event)
        let resumed = state.withLock { state in
            // `withLock` runs its closure once, so the event is there to take.
            guard let event = pending.take() else { preconditionFailure("an event appended twice") }
            add(consume event, to: &state)
            return takeForWaiter(&state)
        }
        if let (waiter, batch) = resumed { waiter.resume(returning: batch) }
    }

    /// Adds two or three consecutive events under one lock (a request's last events), taking
    /// them over.
    func append(_ first: consuming CacheEvent, _ second: consuming CacheEvent, _ third: consuming CacheEvent?) {
        var (pendingFirst, pendingSecond, pendingThird) = (Optional(consume first), Optional(consume second), consume third)
        let resumed = state.withLock { state in
            // `withLock` runs its closure once, so the events are there to take.
            guard let first = pendingFirst.take(), let second = pendingSecond.take() else {
                preconditionFailure("events appended twice")
            }
            add(consume first, to: &state)
            add(consume second, to: &state)
            if let third = pendingThird.take() { add(consume third, to: &state) }
            return takeForWaiter(&state)
        }
        if let (waiter, batch) = resumed { waiter.resume(returning: batch) }
    }

    private func add(_ event: consuming CacheEvent, to state: inout State) {
        guard !state.finished else { return }
        if state.pendingDrops > 0, state.events.count < capacity { Self.appendDropMarker(&state) }
        if state.events.count < capacity {
            state.events.append(consume event)
        } else {
            state.pendingDrops += 1
            state.lastDropped = (event.seq, event.time)
        }
    }

    /// The `dropped` event for the events counted since the last one, in their place: it
    /// takes the last one's seq and time. (It may take the buffer one past its capacity: the
    /// subscriber must learn of the loss when it takes what is there, not at the next event.)
    private static func appendDropMarker(_ state: inout State) {
        state.events.append(CacheEvent(seq: state.lastDropped.seq, time: state.lastDropped.time, kind: .dropped(Dropped(count: state.pendingDrops))))
        state.pendingDrops = 0
    }

    /// A waiting subscriber and everything buffered, for it to be resumed with (outside the
    /// lock); `nil` when nobody waits.
    private func takeForWaiter(_ state: inout State) -> (CheckedContinuation<[CacheEvent]?, Never>, [CacheEvent])? {
        guard !state.finished, let waiter = state.waiter else { return nil }
        state.waiter = nil
        return (waiter, Self.takeAll(&state))
    }

    /// Everything buffered, oldest first, without waiting (empty when nothing is there).
    func take() -> [CacheEvent] {
        state.withLock { Self.takeAll(&$0) }
    }

    /// Whether the subscription has ended and everything was taken.
    var isFinished: Bool {
        state.withLock { $0.finished && $0.events.isEmpty && $0.pendingDrops == 0 }
    }

    /// The next batch, waiting while nothing is buffered; `nil` once the subscription has
    /// ended and everything was taken, or when the waiting task is cancelled.
    func next() async -> [CacheEvent]? {
        // An ended subscription hands over what is left without the pause (one that ends
        // during the pause still waits it out: at most the interval).
        if let last = state.withLock({ $0.finished ? nil : $0.lastDelivery }) {
            let rest = last + EventDelivery.batchingInterval - .now
            // Cancelled while pausing: the handler below ends the subscription.
            if rest > .zero { try? await Task.sleep(for: rest) }
        }
        let batch = await waitForBatch()
        if batch != nil { state.withLock { $0.lastDelivery = .now } }
        return batch
    }

    private func waitForBatch() async -> [CacheEvent]? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[CacheEvent]?, Never>) in
                let immediate: [CacheEvent]?? = state.withLock { state in
                    if !state.events.isEmpty || state.pendingDrops > 0 { return .some(Self.takeAll(&state)) }
                    if state.finished { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            finish()
        }
    }

    /// Ends the subscription: nothing more is added; what is buffered can still be taken.
    func finish() {
        onFinish()
        markFinished()
    }

    /// Marks the end (the bus finished); a waiting subscriber gets `nil`.
    func markFinished() {
        let waiter: CheckedContinuation<[CacheEvent]?, Never>? = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// Everything buffered, and the `dropped` event for what was not, if anything was lost.
    private static func takeAll(_ state: inout State) -> [CacheEvent] {
        if state.pendingDrops > 0 { appendDropMarker(&state) }
        var taken: [CacheEvent] = []
        swap(&taken, &state.events)
        // Start the next batch at this one's size, so publishers do not regrow it.
        if !state.finished { state.events.reserveCapacity(min(taken.count, 1 << 16)) }
        return taken
    }
}
