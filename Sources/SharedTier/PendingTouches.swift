import NIOCore
import Synchronization

/// Entries read from the tier whose last use is not yet written: a lookup only reads, and
/// the entries it found are marked used (`last_access`, the eviction order) together, a moment
/// after the first of them was read (`SharedTier.markUsed(_:)`). A lookup that also wrote
/// would cost every hit a row version, its index entries and WAL.
///
/// One task at a time writes them: scheduled by the first entry added, it waits, then writes
/// what is there (``beginWriting()``, ``take()``) and, should more have come meanwhile,
/// schedules the next (``endWriting(scheduling:)``). ``close()`` ends it: a task still waiting
/// is cancelled, one writing is waited for, and nothing more is added.
///
/// Holds at most ``limit`` entries; the reads past it are not marked (the order is
/// approximate anyway: a second's reads share one time).
final class PendingTouches: Sendable {
    /// The most entries waiting.
    static let limit = 10_000

    private struct State {
        var ids: Set<ByteBuffer> = []
        /// The task that writes them, from when it is scheduled until it ends.
        var task: Task<Void, Never>?
        /// Whether that task is past its wait (writing).
        var writing = false
        var closed = false
    }

    private let state = Mutex(State())

    /// Adds `ids`; when no task is scheduled or writing, schedules `work` (a task of its own).
    /// Nothing once closed.
    func add(_ ids: [ByteBuffer], scheduling work: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            guard !state.closed else { return }
            for id in ids where state.ids.count < Self.limit { state.ids.insert(id) }
            guard state.task == nil, !state.ids.isEmpty else { return }
            state.task = Task(operation: work)
        }
    }

    /// Called by the scheduled task after its wait: `false` once closed (the closer writes).
    func beginWriting() -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.writing = true
            return true
        }
    }

    /// What is waiting, emptied.
    func take() -> [ByteBuffer] {
        state.withLock { state in
            defer { state.ids.removeAll() }
            return Array(state.ids)
        }
    }

    /// Called by the scheduled task when it has written: schedules `work` again when entries
    /// came meanwhile.
    func endWriting(scheduling work: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            state.writing = false
            state.task = nil
            guard !state.closed, !state.ids.isEmpty else { return }
            state.task = Task(operation: work)
        }
    }

    /// Takes no more entries; cancels a task still waiting, and waits for one writing.
    func close() async {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.closed = true
            if !state.writing { state.task?.cancel() }
            return state.task
        }
        await task?.value
    }
}
