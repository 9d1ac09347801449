import Synchronization

/// The tier's writes in flight, each in a task of its own so that no response waits for one;
/// bounded, so a slow database cannot make them pile up.
final class PendingWrites: Sendable {
    private struct State {
        var tasks: [UInt64: Task<Void, Never>] = [:]
        var next: UInt64 = 0
        var finished = false
    }

    private let state = Mutex(State())

    /// Starts `work` unless `limit` writes are already in flight (then it is dropped: the
    /// response stays in the local tiers) or the tier is shutting down; `false` when dropped.
    @discardableResult
    func start(limit: Int, _ work: @escaping @Sendable () async -> Void) -> Bool {
        state.withLock { state in
            guard !state.finished, state.tasks.count < limit else { return false }
            let id = state.next
            state.next += 1
            state.tasks[id] = Task { [weak self] in
                await work()
                self?.state.withLock { _ = $0.tasks.removeValue(forKey: id) }
            }
            return true
        }
    }

    /// Waits for the writes in flight now.
    func drain() async {
        let tasks = state.withLock { Array($0.tasks.values) }
        for task in tasks { await task.value }
    }

    /// Takes no more writes and waits for those in flight.
    func finish() async {
        state.withLock { $0.finished = true }
        await drain()
    }
}
