/// One subscription to an ``EventBus``: its events, and the means to end it early.
///
/// ```swift
/// let subscription = bus.subscription(.recorder)
/// Task { for await event in subscription.events { write(event) } }
/// subscription.finish()   // buffered events are still delivered, then the loop ends
/// ```
public struct EventSubscription: Sendable {
    /// The events, in `seq` order.
    public let events: AsyncStream<CacheEvent>
    private let continuation: AsyncStream<CacheEvent>.Continuation

    init(events: AsyncStream<CacheEvent>, continuation: AsyncStream<CacheEvent>.Continuation) {
        self.events = events
        self.continuation = continuation
    }

    /// Ends the subscription: no further events are added; those already buffered are still
    /// delivered, then the sequence finishes and the bus forgets the subscriber.
    public func finish() {
        continuation.finish()
    }
}
