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
        bus.publish(KindFilterTests.lookup, requestID: 1)                              // seq 1
        #expect(collector.names.isEmpty)
        bus.publish(KindFilterTests.served, KindFilterTests.finished, requestID: 1)     // seq 2, 3
        #expect(collector.seqs == [3], "seen before publish returned")
        bus.publish(KindFilterTests.lookup, KindFilterTests.served, KindFilterTests.finished, requestID: 2)  // 4, 5, 6
        bus.publish(KindFilterTests.error)                                             // seq 7
        #expect(collector.names == ["requestFinished", "requestFinished", "error"])
        #expect(collector.seqs == [3, 6, 7])
        observation.cancel()
    }

    @Test("every kind by default; nothing after cancel")
    func cancel() {
        let bus = EventBus()
        let collector = Collector()
        let observation = bus.observe(collector)
        bus.publish(KindFilterTests.lookup, KindFilterTests.served, KindFilterTests.finished, requestID: 1)
        #expect(collector.seqs == [1, 2, 3])
        observation.cancel()
        bus.publish(KindFilterTests.error)
        #expect(collector.seqs == [1, 2, 3])
    }

    @Test("releasing the observation or finishing the bus takes the observer off")
    func releaseAndFinish() {
        let bus = EventBus()
        let released = Collector(), kept = Collector()
        var observation: EventObservation? = bus.observe(released)
        let keptObservation = bus.observe(kept)
        bus.publish(KindFilterTests.error)
        observation = nil
        bus.publish(KindFilterTests.error)
        #expect(observation == nil && released.seqs == [1])
        #expect(kept.seqs == [1, 2])
        bus.finish()
        bus.publish(KindFilterTests.error)
        #expect(kept.seqs == [1, 2], "a finished bus shows nobody anything")
        keptObservation.cancel()
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
