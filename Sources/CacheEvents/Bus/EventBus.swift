public import Foundation
import Synchronization

/// How a subscriber wants events delivered.
public enum EventDelivery: Sendable, Hashable {
    /// A bounded buffer; when the subscriber falls behind, newer events are not delivered and
    /// a ``CacheEventKind/dropped(_:)`` event tells how many were lost. For dashboards.
    case lossy(bufferSize: Int)
    /// Every event, in order, through a large buffer (the session recorder, a test collecting
    /// a whole session). Should the buffer ever fill (a writer stalled for a million events),
    /// the events past it are counted and a `dropped` event records the loss — the request
    /// path never waits.
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

    /// The shortest time between two batches a subscriber receives: 20 ms for every
    /// subscription. A dashboard redraws at most 30 times a second and a recorder or a summary
    /// loses nothing by getting events in bursts, while a wake-up per event would cost a busy
    /// client a thread hand-off per request (a `--no-ui` proxy's summary cost its hits a third
    /// of their CPU). An idle subscriber still wakes only when an event arrives, and a
    /// subscription that has ended hands over what is left without the pause.
    public static let batchingInterval: Duration = .milliseconds(20)
}

/// Fans events out to any number of subscribers without ever waiting for one, and shows them
/// to its observers as they are published.
///
/// The bus stamps each event with the next `seq` and the time since the session started,
/// read from the clock it was given (the client's), under one lock, so every subscriber sees
/// events in `seq` order and simulated or replayed traffic is stamped right the first time.
/// A publish shows each event to each observer (``EventObserver``), then appends it to each
/// subscriber's buffer, under that lock: a subscriber costs the publisher an append, an
/// observer what it does.
///
/// ```swift
/// let bus = EventBus()
/// let events = bus.subscribe(.dashboard)
/// bus.publish(.error(ErrorInfo(message: "origin unreachable")))
/// ```
public final class EventBus: Sendable {
    /// The time the session started, on the bus's clock.
    public let sessionStart: Date
    private let now: @Sendable () -> Date
    private let state = Mutex(State())
    private let lastRequestID = Atomic<UInt64>(0)

    private struct State {
        var seq: UInt64 = 0
        var nextSubscriberID = 0
        /// In subscription order; an array, because every event walks it.
        var subscribers: [Subscriber] = []
        var nextObserverID = 0
        /// Called for each event under the lock (see ``EventObserver``).
        var observers: [Observer] = [] {
            didSet { observedKinds = observers.reduce(into: CacheEventKinds()) { $0.formUnion($1.kinds) } }
        }
        /// The kinds some observer sees: a publish of other kinds passes the observers over.
        private(set) var observedKinds = CacheEventKinds()
        /// Set by ``finish()``: a subscription made after it ends after its initial events,
        /// and an observer is not added.
        var finished = false
    }

    fileprivate struct Observer {
        var id: Int
        var observer: any EventObserver
        var kinds: CacheEventKinds
    }

    private struct Subscriber {
        var id: Int
        var buffer: EventBuffer
    }

    /// Creates a bus whose session starts now, reading time from `now` (the wall clock unless
    /// a client or a simulation gives its own).
    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
        sessionStart = now()
    }

    /// Seconds since the session started.
    public var elapsed: Double { time(of: nil) }

    /// A new request ID, unique within the session.
    public func makeRequestID() -> UInt64 {
        lastRequestID.add(1, ordering: .relaxed).newValue
    }

    /// Whether anyone is listening — a subscriber or an observer (publishers may skip building
    /// costly payloads otherwise).
    public var hasSubscribers: Bool { state.withLock { !$0.subscribers.isEmpty || !$0.observers.isEmpty } }

    /// Publishes an event to every subscriber (never waiting for a slow one) and observer.
    ///
    /// `date`: when it happened, on the bus's clock, for a publisher that has just read that
    /// clock (a request reads it when it starts and when it ends, and stamps its events with
    /// those readings); `nil` reads the clock now.
    ///
    /// The kind is taken over (`consuming`): the event made of it is moved into the last
    /// subscriber's buffer, so with one subscriber the bus copies no payload — a copy of an
    /// event retains every string and header list in it, on every request.
    public func publish(_ kind: consuming CacheEventKind, requestID: UInt64? = nil, at date: Date? = nil) {
        let time = time(of: date)
        let kinds = CacheEventKinds(kind)
        // An optional, so that the locked closure can move the event out (`take()`): a value
        // a closure captures cannot be consumed otherwise.
        var pending = Optional(CacheEvent(seq: 0, time: time, requestID: requestID, kind: consume kind))
        state.withLock { state in
            // `withLock` runs its closure once, so the event is there to take.
            guard var event = pending.take() else { preconditionFailure("an event published twice") }
            state.seq += 1
            event.seq = state.seq
            Self.deliver(consume event, kinds: kinds, in: &state)
        }
    }

    /// Publishes two or three events back to back (consecutive `seq`, the same `time`) with one
    /// clock read and one lock: how a request's `served` and `requestFinished` go out, after
    /// its `lookup` when it was answered from the cache without waiting for anything. The
    /// kinds are taken over, as ``publish(_:requestID:at:)`` takes its one.
    public func publish(
        _ first: consuming CacheEventKind, _ second: consuming CacheEventKind, _ third: consuming CacheEventKind? = nil,
        requestID: UInt64? = nil, at date: Date? = nil
    ) {
        let time = time(of: date)
        // The kinds before the events are made, so that making them can take the payloads over.
        let (firstKinds, secondKinds, thirdKinds) = (CacheEventKinds(first), CacheEventKinds(second), CacheEventKinds(third))
        // Three optionals, not one of a tuple: a tuple or an optional of events is copied
        // through the runtime's generic witnesses; these are only moved.
        var pendingFirst = Optional(CacheEvent(seq: 0, time: time, requestID: requestID, kind: consume first))
        var pendingSecond = Optional(CacheEvent(seq: 0, time: time, requestID: requestID, kind: consume second))
        // How many events go out, known here (a comparison of an event with nil would copy it).
        let count: UInt64 =
            switch third {
            case .some: 3
            case .none: 2
            }
        var pendingThird: CacheEvent? =
            switch consume third {
            case .some(let kind): CacheEvent(seq: 0, time: time, requestID: requestID, kind: kind)
            case .none: nil
            }
        state.withLock { state in
            // `withLock` runs its closure once, so the events are there to take.
            guard var firstEvent = pendingFirst.take(), var secondEvent = pendingSecond.take() else {
                preconditionFailure("events published twice")
            }
            var thirdEvent = pendingThird.take()
            let seq = state.seq
            state.seq += count
            firstEvent.seq = seq + 1
            secondEvent.seq = seq + 2
            thirdEvent?.seq = seq + 3
            // The observers first, as each event is only lent to them; the subscribers after,
            // the last of them taking the events over.
            if !state.observedKinds.isDisjoint(with: firstKinds.union(secondKinds).union(thirdKinds)) {
                firstEvent.show(as: firstKinds, to: state.observers)
                secondEvent.show(as: secondKinds, to: state.observers)
                thirdEvent?.show(as: thirdKinds, to: state.observers)
            }
            guard let last = state.subscribers.indices.last else { return }
            for index in state.subscribers.indices.dropLast() {
                state.subscribers[index].buffer.append(copy firstEvent, copy secondEvent, copy thirdEvent)  // under one lock
            }
            state.subscribers[last].buffer.append(consume firstEvent, consume secondEvent, consume thirdEvent)
        }
    }

    /// Seconds from the session's start to `date`, or to now.
    private func time(of date: Date?) -> Double {
        (date ?? now()).timeIntervalSince(sessionStart)
    }

    /// Shows a stamped event to the observers of its kinds, then hands it to every subscriber
    /// (under the lock): copies to all but the last, which takes the event itself.
    private static func deliver(_ event: consuming CacheEvent, kinds: CacheEventKinds, in state: inout State) {
        if state.observedKinds.contains(kinds) { event.show(as: kinds, to: state.observers) }
        guard let last = state.subscribers.indices.last else { return }
        for index in state.subscribers.indices.dropLast() { state.subscribers[index].buffer.append(copy event) }
        state.subscribers[last].buffer.append(consume event)
    }

    /// Subscribes: every event published from now on, after the `initial` ones (e.g. a store
    /// snapshot, delivered to this subscriber only). See ``EventSubscription``.
    ///
    public func subscribe(_ delivery: EventDelivery = .dashboard, initial: [CacheEventKind] = []) -> EventSubscription {
        let time = time(of: nil)
        let (buffer, busFinished) = state.withLock { state in
            let id = state.nextSubscriberID
            state.nextSubscriberID += 1
            let buffer = EventBuffer(capacity: delivery.bufferSize) { [weak self] in
                self?.state.withLock { $0.subscribers.removeAll { $0.id == id } }
            }
            // Snapshot events describe the state as of the last published event and carry its
            // seq, so subscribing never leaves a gap in other subscribers' sequence.
            for kind in initial { buffer.append(CacheEvent(seq: state.seq, time: time, kind: kind)) }
            if !state.finished { state.subscribers.append(Subscriber(id: id, buffer: buffer)) }
            return (buffer, state.finished)
        }
        // The bus has finished (the client shut down): nothing more will come.
        if busFinished { buffer.markFinished() }
        return EventSubscription(buffer: buffer)
    }

    /// Has `observer` see every event of `kinds` published from now on, in the publishing task,
    /// under the bus's lock (see ``EventObserver`` for what it may do there), until the returned
    /// observation is cancelled or released, or the bus finishes.
    public func observe(_ observer: some EventObserver, only kinds: CacheEventKinds = .all) -> EventObservation {
        let id = state.withLock { state in
            let id = state.nextObserverID
            state.nextObserverID += 1
            // After the bus finished nothing is published for it to see.
            if !state.finished { state.observers.append(Observer(id: id, observer: observer, kinds: kinds)) }
            return id
        }
        return EventObservation { [weak self] in
            // Released after the lock: an observer's deinit may use the bus (even cancel its
            // own observation), which under the lock would deadlock.
            let removed = self?.state.withLock { state in
                defer { state.observers.removeAll { $0.id == id } }
                return state.observers.filter { $0.id == id }
            }
            _ = removed
        }
    }

    /// Ends every subscription (their sequences finish after the buffered events) and takes
    /// every observer off; a subscription made after this ends after its initial events.
    public func finish() {
        let (subscribers, observers) = state.withLock { state in
            state.finished = true
            defer {
                state.subscribers.removeAll()
                state.observers.removeAll()
            }
            return (state.subscribers.map(\.buffer), state.observers)
        }
        for subscriber in subscribers { subscriber.markFinished() }
        _ = observers  // released here, after the lock (see observe(_:only:))
    }
}

extension CacheEvent {
    /// Shows the event, lent, to each observer of `kinds` (under the bus's lock). An optional
    /// event calls it through optional chaining, which lends it too (`if let` would copy it).
    fileprivate func show(as kinds: CacheEventKinds, to observers: [EventBus.Observer]) {
        for index in observers.indices where observers[index].kinds.contains(kinds) { observers[index].observer.observe(self) }
    }
}
