import Synchronization

/// The tasks serving attached dashboards, so that stopping the server can end them all.
///
/// Each accepted connection is handed to its task from the channel initializer, at once: an
/// accepted connection can never be left waiting in a queue that stopping would discard.
///
/// Concurrency: a `final class` whose task table sits in a `Mutex`; a task that finishes
/// removes itself (so a long-running app that is probed often keeps no dead entries).
final class ConnectionRegistry: Sendable {
    private let state = Mutex(State())

    private struct State {
        var tasks: [Int: Task<Void, Never>] = [:]
        var nextID = 0
        var closed = false
    }

    /// Runs `work` in a new task; after ``closeAll()`` the task starts cancelled, so the work
    /// only closes its connection.
    func run(_ work: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            // The task's removal waits for this lock, so it cannot run before the insertion.
            let task = Task {
                await work()
                self.remove(id)
            }
            if state.closed {
                task.cancel()
            } else {
                state.tasks[id] = task
            }
        }
    }

    /// Cancels every running task, refuses new ones, and waits for them to end.
    func closeAll() async {
        let tasks = state.withLock { state in
            state.closed = true
            return Array(state.tasks.values)
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    private func remove(_ id: Int) {
        _ = state.withLock { $0.tasks.removeValue(forKey: id) }
    }
}
