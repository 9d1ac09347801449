import CacheEvents
import Foundation
import HTTPCaching
import Testing

/// A subscription of some kinds only gets those, with the bus's own seq numbers; every other
/// subscriber still gets everything.
@Suite("Subscriptions of some kinds", .timeLimit(.minutes(1)))
struct KindFilterTests {
    static let finished = CacheEventKind.requestFinished(RequestFinished(
        status: 200, latency: 0.001, bytesFromNetwork: 0, bytesFromCache: 5, outcome: .hit, reason: "max-age=60"))
    static let lookup = CacheEventKind.lookup(Lookup(verdict: .fresh, reason: "max-age=60"))
    static let served = CacheEventKind.served(Served(source: .cache, status: 200, bytes: 5, outcome: .hit, reason: "max-age=60"))
    static let error = CacheEventKind.error(ErrorInfo(message: "disk degraded"))

    @Test("only the kinds asked for reach the buffer, from single and grouped publishes, and from the initial events")
    func onlyTheKindsAskedFor() {
        let bus = EventBus()
        let some = bus.subscribe(.lossless(bufferSize: 100), initial: [Self.error, Self.lookup], only: [.requestFinished, .error])
        let every = bus.subscribe(.lossless(bufferSize: 100))
        bus.publish(Self.lookup, requestID: 1)                            // seq 1
        bus.publish(Self.served, Self.finished, requestID: 1)             // seq 2, 3
        bus.publish(Self.lookup, Self.served, Self.finished, requestID: 2)  // seq 4, 5, 6
        bus.publish(Self.error)                                           // seq 7
        let taken = some.take()
        #expect(taken.map(\.kind.name) == ["error", "requestFinished", "requestFinished", "error"])
        #expect(taken.map(\.seq) == [0, 3, 6, 7], "the bus's seq numbers, with gaps where other kinds were")
        #expect(every.take().map(\.seq) == Array(1...7))
    }

    @Test("once the filtered subscriber is gone, the others still get every event")
    func othersUnaffected() {
        let bus = EventBus()
        var some: EventSubscription? = bus.subscribe(.lossless(bufferSize: 100), only: [.error])
        let every = bus.subscribe(.lossless(bufferSize: 100))
        bus.publish(Self.lookup, requestID: 1)
        some?.finish()
        some = nil
        bus.publish(Self.served, Self.finished, requestID: 1)
        #expect(every.take().map(\.kind.name) == ["lookup", "served", "requestFinished"])
        #expect(CacheEventKinds(Self.finished) == .requestFinished)
        #expect(CacheEventKinds.all.contains(CacheEventKinds(.dropped(Dropped(count: 1)))))
    }
}
