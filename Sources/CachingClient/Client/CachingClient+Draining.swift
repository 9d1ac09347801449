import Synchronization

extension CachingClient {
    /// Waits, at most `limit`, for the background refreshes in flight (stale-while-revalidate)
    /// to finish; the ones still running when `limit` passes are cancelled. Returns whether
    /// all finished in time.
    ///
    /// A process that exits soon after a request should call it before ``shutdown()``, which
    /// cancels refreshes at once: a stale response served just before would otherwise never be
    /// refreshed, and the origin never asked. Refreshes started while waiting are waited for
    /// too.
    ///
    /// ```swift
    /// let result = try await client.data(for: request)   // stale, refresh started
    /// await client.finishBackgroundRefreshes(within: .seconds(5))
    /// try await client.shutdown()
    /// ```
    @discardableResult
    public func finishBackgroundRefreshes(within limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        var awaited: Set<UInt64> = []
        while true {
            let pending = state.withLock { state in state.backgroundTasks.filter { !awaited.contains($0.key) } }
            if pending.isEmpty { return true }
            awaited.formUnion(pending.keys)
            let finished = await Self.wait(for: Array(pending.values), until: deadline)
            // Finished tasks are gone from the table; a task that ended before it was entered
            // is taken out here so it is not waited for again.
            state.withLock { state in for id in pending.keys { state.backgroundTasks.removeValue(forKey: id) } }
            if !finished { return false }
        }
    }

    /// Waits for `tasks` until `deadline`; past it they are cancelled (and waited for, which
    /// is quick once their requests see the cancellation). Returns whether they finished first.
    private static func wait(for tasks: [Task<Void, Never>], until deadline: ContinuousClock.Instant) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for task in tasks { await task.value }
                return true
            }
            group.addTask {
                try? await Task.sleep(until: deadline, clock: .continuous)
                return Task.isCancelled
            }
            let first = await group.next() ?? true
            // The refreshes are cancelled only once the timeout has been taken as the answer:
            // cancelled first, they could end before it, and the wait would report success.
            if !first { for task in tasks { task.cancel() } }
            group.cancelAll()
            // The other child's answer does not matter: a timeout that lost the race is
            // cancelled, and tasks that were cancelled still end.
            _ = await group.next()
            return first
        }
    }
}
