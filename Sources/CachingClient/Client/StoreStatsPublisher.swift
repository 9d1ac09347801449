import CacheEvents
import CacheStore
import Synchronization

/// Publishes `storeStats` when the store has changed, at most once per interval, and never
/// while nothing changes: an idle client with watchers attached (or none) does not wake.
///
/// The first change after a quiet spell starts one wait of `interval`; the changes during
/// it are covered by the one event published at its end (if anyone listens and the figures
/// differ from the last ones published). Late watchers get the figures in their snapshot.
final class StoreStatsPublisher: Sendable {
    private let bus: EventBus
    private let interval: Duration
    private let state = Mutex(State())

    private struct State {
        var source: (@Sendable () -> StoreStats)?
        var pending: Task<Void, Never>?
        var lastPublished: StoreStats?
        var isStopped = false
    }

    init(bus: EventBus, interval: Duration) {
        self.bus = bus
        self.interval = interval
    }

    /// Where the figures come from (the store, once it exists).
    func attach(_ source: @escaping @Sendable () -> StoreStats) {
        state.withLock { $0.source = source }
    }

    /// The store changed: publish its figures within one interval, if anyone listens (a
    /// watcher that comes later gets them in its snapshot).
    func storeChanged() {
        guard bus.hasSubscribers else { return }
        state.withLock { state in
            guard state.pending == nil, !state.isStopped else { return }
            let interval = interval
            state.pending = Task { [weak self] in
                try? await Task.sleep(for: interval)
                self?.publishPending()
            }
        }
    }

    /// Publishes the figures now (after a command), whatever was published last.
    func publishNow() {
        // The store's figures are read outside this lock: the store calls ``storeChanged()``
        // with its own lock held.
        guard let source = state.withLock({ $0.source }) else { return }
        let stats = source()
        state.withLock { $0.lastPublished = stats }
        bus.publish(.storeStats(stats))
    }

    /// Stops: the pending publication, if any, is cancelled and awaited.
    func stop() async {
        let pending = state.withLock { state in
            state.isStopped = true
            defer { state.pending = nil }
            return state.pending
        }
        pending?.cancel()
        await pending?.value
    }

    private func publishPending() {
        let source: (@Sendable () -> StoreStats)? = state.withLock { state in
            state.pending = nil
            guard !Task.isCancelled, !state.isStopped, bus.hasSubscribers else { return nil }
            return state.source
        }
        guard let stats = source?() else { return }
        let changed = state.withLock { state in
            defer { state.lastPublished = stats }
            return stats != state.lastPublished
        }
        if changed { bus.publish(.storeStats(stats)) }
    }
}
