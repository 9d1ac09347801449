/// A batch subscription as an `AsyncSequence` of batches: each `next()` returns everything
/// published since the previous one, waiting `interval` between looks while nothing is there.
///
/// The consumer pulls; nothing ever wakes it, so publishing costs the request path only the
/// append into ``EventBatches`` (tens of nanoseconds), however many events are published and
/// however slowly the consumer reads. A dashboard redraws at most 30 times a second, so it
/// loses nothing by receiving events in bursts of up to `interval` (default 20 ms).
///
/// At most `bufferSize` events wait between two `next()` calls; past that a `dropped` event
/// (in its place in the sequence) says how many were lost. The subscription ends — and the
/// bus forgets it — when the consumer's task is cancelled, when the bus finishes (after the
/// buffered events are returned), or when the sequence and its iterators are released.
///
/// ```swift
/// for await batch in bus.polledBatches(bufferSize: 10_000) {
///     model.withLock { for event in batch { $0.apply(event) } }
/// }
/// ```
public struct PolledEventBatches: AsyncSequence, Sendable {
    public typealias Element = [CacheEvent]
    public typealias Failure = Never

    /// How long `next()` waits between looks when nothing was published.
    public let interval: Duration
    private let subscription: Subscription

    init(batches: EventBatches, interval: Duration) {
        self.interval = interval
        subscription = Subscription(batches: batches)
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(subscription: subscription, interval: interval)
    }

    /// Ends the subscription now: nothing more is added; what is buffered is still returned.
    public func finish() {
        subscription.batches.finish()
    }

    /// Pulls batches, never an empty one.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let subscription: Subscription
        let interval: Duration

        public mutating func next() async -> [CacheEvent]? {
            await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> [CacheEvent]? {
            while true {
                let (batch, finished) = subscription.batches.takeWithStatus()
                if !batch.isEmpty { return batch }
                if finished { return nil }
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    subscription.batches.finish()  // cancelled: the consumer has gone
                    return nil
                }
            }
        }
    }

    /// Owns the bus subscription: releasing the last sequence or iterator ends it.
    fileprivate final class Subscription: Sendable {
        let batches: EventBatches
        init(batches: EventBatches) { self.batches = batches }
        deinit { batches.finish() }
    }
}

/// ``PolledEventBatches`` one event at a time: for consumers that handle events singly
/// (tests, simple watchers). Each `next()` hands out the next event of the current batch and
/// pulls the next batch only when it is used up, so an event costs the consumer an array
/// index rather than a task wake-up.
public struct PolledEvents: AsyncSequence, Sendable {
    public typealias Element = CacheEvent
    public typealias Failure = Never

    /// The batches this sequence flattens.
    public let batches: PolledEventBatches

    /// Events one at a time from `batches`.
    public init(_ batches: PolledEventBatches) {
        self.batches = batches
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(batches: batches.makeAsyncIterator())
    }

    /// Ends the subscription now: nothing more is added; what is buffered is still returned.
    public func finish() {
        batches.finish()
    }

    /// Hands out the events of one batch, then pulls the next.
    public struct Iterator: AsyncIteratorProtocol {
        var batches: PolledEventBatches.Iterator
        var current: [CacheEvent] = []
        var position = 0

        public mutating func next() async -> CacheEvent? {
            await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> CacheEvent? {
            if position == current.count {
                guard let batch = await batches.next(isolation: actor) else { return nil }
                current = batch
                position = 0
            }
            defer { position += 1 }
            return current[position]
        }
    }
}

extension EventBus {
    /// Subscribes with a pull-based batch sequence (see ``PolledEventBatches``): publishing
    /// never wakes the consumer. `initial` events come first.
    public func polledBatches(
        bufferSize: Int = 10_000, initial: [CacheEventKind] = [], interval: Duration = .milliseconds(20)
    ) -> PolledEventBatches {
        PolledEventBatches(batches: subscribeInBatches(bufferSize: bufferSize, initial: initial), interval: interval)
    }
}
