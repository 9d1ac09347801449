import Foundation
import Synchronization

/// How a subscriber wants events delivered.
public enum EventDelivery: Sendable, Hashable {
    /// A bounded buffer; when the subscriber falls behind, newer events are not delivered and
    /// a ``CacheEventKind/dropped(_:)`` event tells how many were lost. For dashboards.
    case lossy(bufferSize: Int)
    /// Every event, in order, through a large buffer (e.g. a test collecting a whole session; the
    /// recorder uses ``EventBus/subscribeInBatches(bufferSize:initial:)``). Should the buffer
    /// ever fill (a writer stalled for a million events), the events past it are counted and
    /// a `dropped` event records the loss — the request path never waits.
    case lossless(bufferSize: Int)

    /// A dashboard's default: 10,000 events.
    public static let dashboard = EventDelivery.lossy(bufferSize: 10_000)
    /// A recorder's default: 1,000,000 events.
    public static let recorder = EventDelivery.lossless(bufferSize: 1_000_000)

    /// How many events may wait for the subscriber.
    public var bufferSize: Int {
        switch self {
        case .lossy(let bufferSize), .lossless(let bufferSize): return bufferSize
        }
    }
}

/// Fans events out to any number of subscribers without ever blocking the publisher.
///
/// The bus stamps each event with the next `seq` and the seconds since the session started,
/// under one lock, so every subscriber sees events in `seq` order.
///
/// ```swift
/// let bus = EventBus()
/// let events = bus.subscribe(.dashboard)
/// bus.publish(.error(ErrorInfo(message: "origin unreachable")))
/// ```
public final class EventBus: Sendable {
    /// The wall-clock time the session started.
    public let sessionStart: Date
    private let start: ContinuousClock.Instant
    private let state = Mutex(State())

    private struct State {
        var seq: UInt64 = 0
        var nextRequestID: UInt64 = 0
        var nextSubscriberID = 0
        var subscribers: [Int: Subscriber] = [:]
        var batchSubscribers: [Int: EventBatches] = [:]
    }

    private struct Subscriber {
        let continuation: AsyncStream<CacheEvent>.Continuation
        var pendingDrops = 0
    }

    /// Creates a bus whose session starts now.
    public init() {
        sessionStart = Date()
        start = ContinuousClock.now
    }

    /// Seconds since the session started.
    public var elapsed: Double { (ContinuousClock.now - start).inSeconds }

    /// A new request ID, unique within the session.
    public func makeRequestID() -> UInt64 {
        state.withLock { state in
            state.nextRequestID += 1
            return state.nextRequestID
        }
    }

    /// Whether anyone is listening (publishers may skip building costly payloads otherwise).
    public var hasSubscribers: Bool { state.withLock { !$0.subscribers.isEmpty || !$0.batchSubscribers.isEmpty } }

    /// Publishes an event to every subscriber; never blocks on a slow one.
    @discardableResult
    public func publish(_ kind: CacheEventKind, requestID: UInt64? = nil) -> CacheEvent {
        let time = elapsed
        return state.withLock { state in
            stampAndDeliver(kind, time: time, requestID: requestID, in: &state)
        }
    }

    /// Publishes two events back to back (consecutive `seq`, the same `time`) with one clock
    /// read and one lock: how a request's `served` and `requestFinished` go out.
    public func publish(_ first: CacheEventKind, _ second: CacheEventKind, requestID: UInt64? = nil) {
        let time = elapsed
        state.withLock { state in
            stampAndDeliver(first, time: time, requestID: requestID, in: &state)
            stampAndDeliver(second, time: time, requestID: requestID, in: &state)
        }
    }

    /// Gives the event the next `seq` and hands it to every subscriber (under the lock).
    @discardableResult
    private func stampAndDeliver(_ kind: CacheEventKind, time: Double, requestID: UInt64?, in state: inout State) -> CacheEvent {
        state.seq += 1
        let event = CacheEvent(seq: state.seq, time: time, requestID: requestID, kind: kind)
        for id in state.subscribers.keys {
            deliver(event, to: &state.subscribers[id]!)
        }
        for batches in state.batchSubscribers.values { batches.append(event) }
        return event
    }

    /// Subscribes; the sequence ends when the bus is finished or the consumer stops iterating.
    /// `initial` events (e.g. a store snapshot) are delivered first, to this subscriber only.
    public func subscribe(_ delivery: EventDelivery = .dashboard, initial: [CacheEventKind] = []) -> AsyncStream<CacheEvent> {
        subscription(delivery, initial: initial).events
    }

    /// Subscribes like ``subscribe(_:initial:)`` and also returns the means to end this one
    /// subscription: after ``EventSubscription/finish()`` the events already buffered are still
    /// delivered, then the sequence ends. The session recorder closes its log this way without
    /// losing the tail.
    public func subscription(_ delivery: EventDelivery = .dashboard, initial: [CacheEventKind] = []) -> EventSubscription {
        let size = max(1, delivery.bufferSize)
        let (stream, continuation) = AsyncStream.makeStream(of: CacheEvent.self, bufferingPolicy: .bufferingOldest(size))
        let time = elapsed
        let id = state.withLock { state in
            let id = state.nextSubscriberID
            state.nextSubscriberID += 1
            var subscriber = Subscriber(continuation: continuation)
            // Snapshot events describe the state as of the last published event and carry its
            // seq, so subscribing never leaves a gap in other (lossless) subscribers' sequence.
            for kind in initial {
                deliver(CacheEvent(seq: state.seq, time: time, kind: kind), to: &subscriber)
            }
            state.subscribers[id] = subscriber
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return EventSubscription(events: stream, continuation: continuation)
    }

    /// Subscribes with a buffer the subscriber empties itself (``EventBatches/take()``), so
    /// publishing never has to wake it: the session recorder's way to see every event at a
    /// cost of tens of nanoseconds per publish. Up to `bufferSize` events wait (default: a
    /// million); beyond that, a `dropped` event reports the loss. `initial` events come first.
    public func subscribeInBatches(bufferSize: Int = 1_000_000, initial: [CacheEventKind] = []) -> EventBatches {
        let time = elapsed
        return state.withLock { state in
            let id = state.nextSubscriberID
            state.nextSubscriberID += 1
            let batches = EventBatches(bufferSize: bufferSize) { [weak self] in
                _ = self?.state.withLock { $0.batchSubscribers.removeValue(forKey: id) }
            }
            for kind in initial {
                batches.append(CacheEvent(seq: state.seq, time: time, kind: kind))
            }
            state.batchSubscribers[id] = batches
            return batches
        }
    }

    /// Ends every subscription (their sequences finish after the buffered events).
    public func finish() {
        let (subscribers, batchSubscribers) = state.withLock { state in
            defer {
                state.subscribers.removeAll()
                state.batchSubscribers.removeAll()
            }
            return (Array(state.subscribers.values), Array(state.batchSubscribers.values))
        }
        for subscriber in subscribers { subscriber.continuation.finish() }
        for batches in batchSubscribers { batches.markFinished() }
    }

    private func deliver(_ event: CacheEvent, to subscriber: inout Subscriber) {
        if subscriber.pendingDrops > 0 {
            // The drops were the events just before this one, so the marker takes the last one's seq.
            let marker = CacheEvent(seq: event.seq - 1, time: event.time, kind: .dropped(Dropped(count: subscriber.pendingDrops)))
            guard case .enqueued = subscriber.continuation.yield(marker) else {
                subscriber.pendingDrops += 1
                return
            }
            subscriber.pendingDrops = 0
        }
        if case .dropped = subscriber.continuation.yield(event) { subscriber.pendingDrops += 1 }
    }
}
