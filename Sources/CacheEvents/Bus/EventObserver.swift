/// Something that sees events as they are published, in the publishing task — for a consumer
/// whose work per event is a few counter increments (the metrics), for which a subscription's
/// buffer, copy and task would cost more than the work itself.
///
/// ``observe(_:)`` is called under the bus's lock, in `seq` order, once per event of the kinds
/// asked for: it must be quick, must never wait or block, and must not call the same bus —
/// publish, subscribe, observe, `hasSubscribers`, `finish`, nor cancel an observation of it —
/// which would deadlock. Calls on one bus never overlap, so an observer on one bus only may keep
/// state without a lock of its own. (Releasing an observer happens after the lock: its
/// `deinit` may use the bus.) Anything slower belongs in a subscription (``EventBus/subscribe(_:initial:)``).
public protocol EventObserver: AnyObject, Sendable {
    /// Sees one event, just stamped, before the publisher goes on.
    func observe(_ event: CacheEvent)
}

/// An observer's place on a bus, from ``EventBus/observe(_:only:)``; ``cancel()`` takes it off.
/// Releasing the last reference to it takes it off too.
public final class EventObservation: Sendable {
    private let remove: @Sendable () -> Void

    init(remove: @escaping @Sendable () -> Void) { self.remove = remove }

    /// Takes the observer off the bus: it sees no event published after this returns.
    public func cancel() { remove() }

    deinit { remove() }
}
