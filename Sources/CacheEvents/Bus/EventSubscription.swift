/// One subscription to an ``EventBus``: the only way to receive events.
///
/// An `AsyncSequence` of events in `seq` order; ``batches`` gives the same events as arrays
/// (a dashboard applies a burst under one lock and redraws once), and ``take()`` empties the
/// buffer without waiting (a thread that polls, like the session recorder's). Use one of the
/// three per subscription.
///
/// Delivery is event-driven: an idle subscriber is woken by the next event, and events that
/// arrive while it is busy come as one batch; with no traffic it never wakes. At most the
/// ``EventDelivery``'s `bufferSize` events wait; past that a `dropped` event, in its place in
/// the sequence, says how many were lost — the publisher never waits.
///
/// The subscription ends when ``finish()`` is called (what is buffered is still delivered),
/// when the bus finishes, when the consuming task is cancelled, or when the last copy of it is
/// released.
///
/// ```swift
/// let subscription = bus.subscribe(.recorder)
/// Task { for await event in subscription { write(event) } }
/// subscription.finish()   // buffered events are still delivered, then the loop ends
/// ```
public struct EventSubscription: AsyncSequence, Sendable {
    public typealias Element = CacheEvent
    public typealias Failure = Never

    private let owner: Owner

    init(buffer: EventBuffer) {
        owner = Owner(buffer: buffer)
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(owner: owner)
    }

    /// The same events as arrays: each element is everything published since the previous one.
    public var batches: Batches { Batches(owner: owner) }

    /// Everything buffered, oldest first, without waiting (empty when nothing is there).
    public func take() -> [CacheEvent] { owner.buffer.take() }

    /// Whether the subscription has ended and every event was taken.
    public var isFinished: Bool { owner.buffer.isFinished }

    /// Ends the subscription: nothing more is added; what is buffered is still delivered.
    public func finish() { owner.buffer.finish() }

    /// Hands out the events of one batch, then waits for the next.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let owner: Owner
        private var current: [CacheEvent] = []
        private var position = 0

        fileprivate init(owner: Owner) { self.owner = owner }

        public mutating func next() async -> CacheEvent? {
            await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> CacheEvent? {
            if position == current.count {
                guard let batch = await owner.buffer.next() else { return nil }
                current = batch
                position = 0
            }
            defer { position += 1 }
            return current[position]
        }
    }

    /// The subscription's events as batches, never an empty one.
    public struct Batches: AsyncSequence, Sendable {
        public typealias Element = [CacheEvent]
        public typealias Failure = Never

        fileprivate let owner: Owner

        public func makeAsyncIterator() -> Iterator { Iterator(owner: owner) }

        /// Ends the subscription, as ``EventSubscription/finish()`` does.
        public func finish() { owner.buffer.finish() }

        /// Waits for the next batch.
        public struct Iterator: AsyncIteratorProtocol {
            fileprivate let owner: Owner

            public mutating func next() async -> [CacheEvent]? {
                await owner.buffer.next()
            }

            public mutating func next(isolation actor: isolated (any Actor)?) async -> [CacheEvent]? {
                await owner.buffer.next()
            }
        }
    }

    /// Owns the bus subscription: releasing the last sequence or iterator ends it.
    fileprivate final class Owner: Sendable {
        let buffer: EventBuffer
        init(buffer: EventBuffer) { self.buffer = buffer }
        deinit { buffer.finish() }
    }
}
