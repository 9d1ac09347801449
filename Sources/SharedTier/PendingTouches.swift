import NIOCore
import Synchronization

/// Entries read from the tier whose last use is not yet written: a lookup only reads, and
/// the entries it found are marked used (`last_access`, the eviction order) together, in one
/// statement, ``SharedTier/touchDelay`` after the first of them was read. A lookup that also
/// wrote would cost every hit a row version, its index entries and WAL.
///
/// Holds at most ``limit`` entries; the reads past it are not marked (the order is
/// approximate anyway: a second's reads share one time).
final class PendingTouches: Sendable {
    /// The most entries waiting.
    static let limit = 10_000

    private struct State {
        var ids: Set<ByteBuffer> = []
        /// The task that marks them, while one is scheduled.
        var flush: Task<Void, Never>?
    }

    private let state = Mutex(State())

    /// Adds `ids`; when no flush is scheduled, schedules `flush` (a task of its own).
    func add(_ ids: [ByteBuffer], scheduling flush: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            for id in ids where state.ids.count < Self.limit { state.ids.insert(id) }
            guard state.flush == nil, !state.ids.isEmpty else { return }
            state.flush = Task(operation: flush)
        }
    }

    /// What is waiting, emptied; the scheduled task, if any, is forgotten (it finds nothing).
    func take() -> [ByteBuffer] {
        state.withLock { state in
            defer {
                state.ids.removeAll()
                state.flush = nil
            }
            return Array(state.ids)
        }
    }

    /// Cancels the scheduled task and waits for it.
    func cancel() async {
        let task = state.withLock { state in
            defer { state.flush = nil }
            return state.flush
        }
        task?.cancel()
        await task?.value
    }
}
