import Foundation

/// What the public ``ResponseStore`` and the disk actor share: the index under its lock, the
/// observer, the clock, and the signal that wakes the disk actor.
///
/// The index is guarded by a lock, not an actor: a memory hit is a few hundred nanoseconds
/// of work, and an actor hop alone costs more (the benchmark measures both; docs/store.md
/// records the figures). The lock is ``Locked`` (a pthread mutex) rather than
/// `Synchronization.Mutex`, which ThreadSanitizer cannot see on Linux. Changes are reported
/// after the lock is released.
final class StoreCore: Sendable {
    let index: Locked<StoreIndex>
    private let observer: Locked<ObserverBox?>
    private let wake: AsyncStream<Void>.Continuation?
    /// The configured clock.
    let now: @Sendable () -> Date

    init(index: StoreIndex, observer: StoreObserver?, wake: AsyncStream<Void>.Continuation?, now: @escaping @Sendable () -> Date) {
        self.index = Locked(index)
        self.observer = Locked(observer.map(ObserverBox.init))
        self.wake = wake
        self.now = now
    }

    /// Runs `body` under the lock, then wakes the disk actor if commands were queued and
    /// reports the changes `body` made.
    @discardableResult
    func withIndex<R: Sendable>(_ body: (inout StoreIndex) -> R) -> R {
        let (result, changes, wakeNeeded) = index.withLock { state in
            let result = body(&state)
            return (result, state.takeChanges(), state.takeWake())
        }
        if wakeNeeded { wake?.yield() }
        if !changes.isEmpty { report(changes) }
        return result
    }

    /// Reads from the index under the lock.
    func read<R: Sendable>(_ body: (StoreIndex) -> R) -> R {
        index.withLock { state in body(state) }
    }

    /// Reports changes recorded in the index outside ``withIndex(_:)`` (those of opening).
    func reportPendingChanges() {
        let changes = index.withLock { $0.takeChanges() }
        if !changes.isEmpty { report(changes) }
    }

    /// Calls the observer with each change, outside any lock.
    func report(_ changes: [StoreChange]) {
        guard let box = observer.withLock({ $0 }) else { return }
        for change in changes { box.call(change) }
    }

    /// Replaces the observer.
    func setObserver(_ newObserver: StoreObserver?) {
        observer.withLock { $0 = newObserver.map(ObserverBox.init) }
    }

    /// Ends the disk actor's wake stream (its loop finishes the queued work and closes).
    func finishWakes() {
        wake?.finish()
    }
}

/// Holds the observer in a class: a closure kept directly in a generic container (`Locked`)
/// is re-wrapped in a reabstraction thunk on every `inout` access, so each report made the
/// chain of thunks longer (measured: 150 frames deep after a few thousand changes).
private final class ObserverBox: Sendable {
    let call: StoreObserver
    init(_ call: @escaping StoreObserver) { self.call = call }
}
