@_spi(Benchmarks) import CacheStore

/// Collects a store's changes for assertions.
final class ChangeRecorder: Sendable {
    private let changes = Locked<[StoreChange]>([])

    /// The observer to give the store.
    var observer: StoreObserver {
        { [self] change in changes.withLock { $0.append(change) } }
    }

    var all: [StoreChange] { changes.withLock { $0 } }

    func clear() { changes.withLock { $0 = [] } }

    /// Every eviction reported.
    var evictions: [Eviction] {
        all.compactMap { change in
            if case .evicted(let eviction) = change { return eviction }
            return nil
        }
    }

    /// Evictions with a reason.
    func evictions(_ reason: EvictionReason) -> [Eviction] { evictions.filter { $0.reason == reason } }

    /// Disk failures reported.
    var diskFailures: [String] {
        all.compactMap { change in
            if case .diskFailure(let message) = change { return message }
            return nil
        }
    }

    /// Entries reported stored.
    var stored: [EntrySummary] {
        all.compactMap { change in
            if case .stored(let summary) = change { return summary }
            return nil
        }
    }
}
