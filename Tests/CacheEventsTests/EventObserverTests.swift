import CacheEvents
import HTTPCaching
import Synchronization
import Testing

/// An observer sees the events of its kinds as they are published — in `seq` order, from
/// single and grouped publishes — and nothing once cancelled, released or the bus has finished.
@Suite("Event observers", .timeLimit(.minutes(1)))
struct EventObserverTests {
    /// Keeps what it is shown.
    final class Collector: EventObserver {
        let seen = Mutex<[CacheEvent]>([])
        func observe(_ event: CacheEvent) { seen.withLock { $0.append(event) } }
        var names: [String] { seen.withLock { $0.map(\.kind.name) } }
        var seqs: [UInt64] { seen.withLock { $0.map(\.seq) } }
    }

    @Test("an observer sees only its kinds, each once, in seq order, before publish returns")
    func kindsInOrder() {
        let bus = EventBus()
        let collector = Collector()
        let observation = bus.observe(collector, only: [.requestFinished, .error])
        bus.publish(EventKindsTests.lookup, requestID: 1)                              // seq 1
        #expect(collector.names.isEmpty)
        bus.publish(EventKindsTests.served, EventKindsTests.finished, requestID: 1)     // seq 2, 3
        #expect(collector.seqs == [3], "seen before publish returned")
        bus.publish(EventKindsTests.lookup, EventKindsTests.served, EventKindsTests.finished, requestID: 2)  // 4, 5, 6
        bus.publish(EventKindsTests.error)                                             // seq 7
        #expect(collector.names == ["requestFinished", "requestFinished", "error"])
        #expect(collector.seqs == [3, 6, 7])
        observation.cancel()
    }

    @Test("every kind by default; nothing after cancel")
    func cancel() {
        let bus = EventBus()
        let collector = Collector()
        let observation = bus.observe(collector)
        bus.publish(EventKindsTests.lookup, EventKindsTests.served, EventKindsTests.finished, requestID: 1)
        #expect(collector.seqs == [1, 2, 3])
        observation.cancel()
        bus.publish(EventKindsTests.error)
        #expect(collector.seqs == [1, 2, 3])
    }

    @Test("two observers of different kinds: each sees its own; after one is cancelled the other still sees its kinds, and the first's kinds reach nobody")
    func twoObserversOneCancelled() {
        let bus = EventBus()
        let (finishing, lookingUp) = (Collector(), Collector())
        let finishedObservation = bus.observe(finishing, only: .requestFinished)
        let lookupObservation = bus.observe(lookingUp, only: [.lookup, .error])
        bus.publish(EventKindsTests.lookup, EventKindsTests.served, EventKindsTests.finished, requestID: 1)  // seq 1, 2, 3
        #expect(finishing.seqs == [3])
        #expect(lookingUp.seqs == [1])
        finishedObservation.cancel()
        bus.publish(EventKindsTests.lookup, EventKindsTests.served, EventKindsTests.finished, requestID: 2)  // 4, 5, 6
        bus.publish(EventKindsTests.finished, requestID: 3)                                               // 7
        bus.publish(EventKindsTests.error)                                                                // 8
        #expect(finishing.seqs == [3])
        #expect(lookingUp.seqs == [1, 4, 8])
        lookupObservation.cancel()
        bus.publish(EventKindsTests.error)
        #expect(lookingUp.seqs == [1, 4, 8])
    }

    @Test("releasing the observation or finishing the bus takes the observer off")
    func releaseAndFinish() {
        let bus = EventBus()
        let released = Collector(), kept = Collector()
        let keptObservation = bus.observe(kept)
        do {
            let observation = bus.observe(released)
            bus.publish(EventKindsTests.error)
            withExtendedLifetime(observation) {}
        }
        bus.publish(EventKindsTests.error)
        #expect(released.seqs == [1], "released with its observation")
        #expect(kept.seqs == [1, 2])
        bus.finish()
        bus.publish(EventKindsTests.error)
        #expect(kept.seqs == [1, 2], "a finished bus shows nobody anything")
        keptObservation.cancel()
    }

    /// Holds its own observation, as an object that observes for as long as it lives would.
    final class SelfObserving: EventObserver {
        let bus: EventBus
        let observation = Mutex<EventObservation?>(nil)
        let released: @Sendable (Bool) -> Void
        init(bus: EventBus, released: @escaping @Sendable (Bool) -> Void) {
            self.bus = bus
            self.released = released
        }
        func observe(_ event: CacheEvent) {}
        deinit {
            // Both use the bus's lock: under it, they would deadlock.
            observation.withLock { $0?.cancel() }
            released(bus.hasSubscribers)
        }
    }

    @Test("an observer whose deinit uses the bus is released after the bus's lock, by finish and by cancel")
    func releasedOutsideTheLock() {
        let bus = EventBus()
        let releases = Mutex(0)
        let count: @Sendable (Bool) -> Void = { _ in releases.withLock { $0 += 1 } }
        let observation = bus.observe(SelfObserving(bus: bus, released: count))  // the bus holds the only reference
        do {
            let finished = SelfObserving(bus: bus, released: count)
            finished.observation.withLock { $0 = bus.observe(finished) }
        }
        observation.cancel()  // releases the first, whose deinit asks the bus
        #expect(releases.withLock { $0 } == 1)
        bus.finish()  // releases the second, whose deinit cancels its own observation
        #expect(releases.withLock { $0 } == 2)
        bus.publish(EventKindsTests.error)
    }

    @Test("an observer alone counts as someone listening (publishers build payloads for it)")
    func countsAsListening() {
        let bus = EventBus()
        #expect(!bus.hasSubscribers)
        let observation = bus.observe(Collector(), only: [.storeStats])
        #expect(bus.hasSubscribers)
        observation.cancel()
        #expect(!bus.hasSubscribers)
    }
}
