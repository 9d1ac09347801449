import CacheEvents
import CacheStore
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

    @Test("a subscriber of every kind gets every event beside a filtered one, and after it has gone")
    func othersUnaffected() {
        let bus = EventBus()
        var some: EventSubscription? = bus.subscribe(.lossless(bufferSize: 100), only: [.error])
        let every = bus.subscribe(.lossless(bufferSize: 100))
        bus.publish(Self.lookup, requestID: 1)
        some?.finish()
        some = nil
        bus.publish(Self.served, Self.finished, requestID: 1)
        #expect(every.take().map(\.kind.name) == ["lookup", "served", "requestFinished"])
    }

    /// Each kind's constant, by the kind's name.
    static let byName: [String: CacheEventKinds] = [
        "requestStarted": .requestStarted, "lookup": .lookup, "revalidationSent": .revalidationSent, "notModified": .notModified,
        "modified": .modified, "served": .served, "stored": .stored, "promoted": .promoted, "evicted": .evicted, "purged": .purged,
        "coalesced": .coalesced, "requestFinished": .requestFinished, "error": .error, "storeStats": .storeStats,
        "entries": .entries, "command": .command, "dropped": .dropped,
    ]

    @Test("seventeen kinds, one bit each, together all; an event's kind maps to the constant of its name")
    func oneBitPerKind() {
        let constants = Array(Self.byName.values)
        #expect(constants.count == 17)
        #expect(Set(constants.map(\.rawValue)).count == 17)
        #expect(constants.allSatisfy { $0.rawValue.nonzeroBitCount == 1 })
        #expect(constants.reduce(CacheEventKinds()) { $0.union($1) } == .all)
        let samples: [CacheEventKind] = [
            Self.lookup, Self.served, Self.finished, Self.error, .dropped(Dropped(count: 1)), .promoted(EntryRef(key: "GET http://o/a")),
            .command(CommandInfo(name: "purgeAll")),
            .storeStats(StoreStats(memoryUsed: 0, memoryCapacity: 1, diskUsed: 0, diskCapacity: 0, entryCount: 0)),
            .revalidationSent(RevalidationSent(ifNoneMatch: "\"v1\"", ifModifiedSince: nil)), .notModified(NotModified(freshened: 1, ttl: 60)),
        ]
        for kind in samples { #expect(CacheEventKinds(kind) == Self.byName[kind.name], "\(kind.name)") }
    }
}
