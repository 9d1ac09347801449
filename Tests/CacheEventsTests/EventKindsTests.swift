import CacheEvents
import CacheStore
import Foundation
import HTTPCaching
import Testing

/// The kinds an observer can ask for (EventObserverTests has them filtered): one bit each, and
/// each event maps to its own.
@Suite("Event kinds", .timeLimit(.minutes(1)))
struct EventKindsTests {
    static let finished = CacheEventKind.requestFinished(RequestFinished(
        status: 200, latency: 0.001, bytesFromNetwork: 0, bytesFromCache: 5, outcome: .hit, reason: "max-age=60"))
    static let lookup = CacheEventKind.lookup(Lookup(verdict: .fresh, reason: "max-age=60"))
    static let served = CacheEventKind.served(Served(source: .cache, status: 200, bytes: 5, outcome: .hit, reason: "max-age=60"))
    static let error = CacheEventKind.error(ErrorInfo(message: "disk degraded"))

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
