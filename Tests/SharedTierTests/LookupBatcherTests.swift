import NIOCore
@testable import SharedTier
import Synchronization
import Testing

/// The batcher alone, with a query that answers each digest with its own first byte (or fails),
/// and that the test can hold open.
@Suite("Shared tier: concurrent lookups sent together", .timeLimit(.minutes(1)))
struct LookupBatcherTests {
    /// A query function that records the digests each call carried and waits at `gate` while
    /// it is closed.
    final class RecordingQuery: Sendable {
        let calls = Mutex<[[UInt8]]>([])
        let gate = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let holdFirst: Bool
        let fails: Bool

        /// `fails`: every call fails. A call made in a cancelled task fails too, as a real
        /// query does.
        init(holdFirst: Bool, fails: Bool = false) {
            self.holdFirst = holdFirst
            self.fails = fails
        }

        func run(_ digests: [ByteBuffer]) async -> [ByteBuffer: [UInt8]]? {
            let isFirst = calls.withLock { calls in
                calls.append(digests.map { $0.getInteger(at: $0.readerIndex, as: UInt8.self) ?? 0 })
                return calls.count == 1
            }
            if isFirst && holdFirst { await withCheckedContinuation { continuation in gate.withLock { $0 = continuation } } }
            if fails || Task.isCancelled { return nil }
            // Digest 99 is "not in the tier": left out of the answer.
            var answer: [ByteBuffer: [UInt8]] = [:]
            for digest in digests where digest.getInteger(at: digest.readerIndex, as: UInt8.self) != 99 {
                answer[digest] = [digest.getInteger(at: digest.readerIndex, as: UInt8.self) ?? 0]
            }
            return answer
        }

        /// Lets the held first query go on, once it has started.
        func release() async {
            while true {
                if let continuation = gate.withLock({ $0.take() }) { return continuation.resume() }
                await Task.yield()
            }
        }
    }

    private static func digest(_ byte: UInt8) -> ByteBuffer { ByteBuffer(bytes: [byte]) }

    struct NeverHappened: Error {}

    private static func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw NeverHappened() }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// A lookup of `first` whose query is held; once that query is under way, lookups of
    /// `waiters`, queued one at a time in that order; then `beforeRelease`, and the held query
    /// goes on. Every lookup's byte and rows, in the order they were answered.
    private static func holdingFirst(
        _ first: UInt8, then waiters: [UInt8], on batcher: LookupBatcher<[UInt8]>, _ query: RecordingQuery,
        beforeRelease: () async throws -> Void = {}
    ) async throws -> [(byte: UInt8, rows: [UInt8]?)] {
        try await withThrowingTaskGroup(of: (byte: UInt8, rows: [UInt8]?).self) { group in
            group.addTask { (first, await batcher.rows(for: digest(first), query: query.run, none: [])) }
            try await waitUntil { query.calls.withLock { $0.count } == 1 }
            for (index, byte) in waiters.enumerated() {
                group.addTask { (byte, await batcher.rows(for: digest(byte), query: query.run, none: [])) }
                try await waitUntil { batcher.waiting == index + 1 }
            }
            try await beforeRelease()
            await query.release()
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// The rows each byte's lookup got (the bytes distinct).
    private static func byByte(_ answers: [(byte: UInt8, rows: [UInt8]?)]) -> [UInt8: [UInt8]?] {
        Dictionary(uniqueKeysWithValues: answers.map { ($0.byte, $0.rows) })
    }

    @Test("a lone lookup sends its own query at once, with only its key")
    func loneLookup() async {
        let batcher = LookupBatcher<[UInt8]>(limit: 1, maximumBatch: 8, maximumWait: .seconds(30))
        let query = RecordingQuery(holdFirst: false)
        let rows = await batcher.rows(for: Self.digest(7), query: query.run, none: [])
        #expect(rows == [7])
        #expect(query.calls.withLock { $0 } == [[7]])
        #expect(batcher.largestBatch == 0, "nothing waited")
    }

    @Test("lookups arriving while the query is under way go in one query, each answered with its own rows")
    func waitersShareOneQuery() async throws {
        let batcher = LookupBatcher<[UInt8]>(limit: 1, maximumBatch: 8, maximumWait: .seconds(30))
        let query = RecordingQuery(holdFirst: true)
        let answers = try await Self.holdingFirst(1, then: [2, 3, 99, 5, 6], on: batcher, query)
        #expect(Self.byByte(answers) == [1: [1], 2: [2], 3: [3], 99: [], 5: [5], 6: [6]], "each its own rows; 99 none")
        let calls = query.calls.withLock { $0 }
        #expect(calls.count == 2, "the five waiters went in one query: \(calls)")
        #expect(calls.last.map { Set($0) } == [2, 3, 99, 5, 6])
        #expect(batcher.largestBatch == 5)
    }

    @Test("a batch carries at most maximumBatch keys; the rest go in the next")
    func batchesAreBounded() async throws {
        let batcher = LookupBatcher<[UInt8]>(limit: 1, maximumBatch: 4, maximumWait: .seconds(30))
        let query = RecordingQuery(holdFirst: true)
        let answers = try await Self.holdingFirst(0, then: Array(1...10), on: batcher, query)
        #expect(answers.filter { $0.rows != nil }.count == 11)
        #expect(query.calls.withLock { $0.map(\.count) } == [1, 4, 4, 2])
    }

    @Test("a failed query is a failure for every lookup it carried, and the next batch still runs")
    func failureReachesTheWholeBatch() async throws {
        let batcher = LookupBatcher<[UInt8]>(limit: 1, maximumBatch: 8, maximumWait: .seconds(30))
        let query = RecordingQuery(holdFirst: true, fails: true)
        let answers = try await Self.holdingFirst(1, then: [2, 3], on: batcher, query)
        #expect(answers.count == 3)
        for answer in answers { #expect(answer.rows == nil) }
        #expect(query.calls.withLock { $0.map(\.count) } == [1, 2], "the two waiters went together")
        // The slot was given back: a new lookup runs at once.
        let healthy = RecordingQuery(holdFirst: false)
        #expect(await batcher.rows(for: Self.digest(4), query: healthy.run, none: []) == [4])
    }

    @Test("a lookup that waited longer than maximumWait is answered as a miss when the query ends")
    func tooLongAWaitIsAMiss() async throws {
        let batcher = LookupBatcher<[UInt8]>(limit: 1, maximumBatch: 8, maximumWait: .milliseconds(50))
        let query = RecordingQuery(holdFirst: true)
        let answers = Self.byByte(try await Self.holdingFirst(1, then: [2], on: batcher, query) {
            try await Task.sleep(for: .milliseconds(100))  // past maximumWait: the waiting is the behaviour
        })
        #expect(answers[1] == .some([1]), "1 answered")
        #expect(answers[2] == .some(nil), "2 gave up")
        #expect(query.calls.withLock { $0.count } == 1, "no query for the lookup that gave up")
        #expect(await batcher.rows(for: Self.digest(3), query: query.run, none: []) == [3], "the slot is free again")
    }

    @Test("the cancellation of the lookup that leads a batch does not fail the others in it")
    func cancelledLeaderDoesNotFailTheBatch() async throws {
        let batcher = LookupBatcher<[UInt8]>(limit: 1, maximumBatch: 8, maximumWait: .seconds(30))
        let query = RecordingQuery(holdFirst: true)
        let first = Task { await batcher.rows(for: Self.digest(1), query: query.run, none: []) }
        try await Self.waitUntil { query.calls.withLock { $0.count } == 1 }
        let leader = Task { await batcher.rows(for: Self.digest(2), query: query.run, none: []) }
        try await Self.waitUntil { batcher.waiting == 1 }
        let follower = Task { await batcher.rows(for: Self.digest(3), query: query.run, none: []) }
        try await Self.waitUntil { batcher.waiting == 2 }
        leader.cancel()
        await query.release()
        #expect(await first.value == [1])
        #expect(await follower.value == [3], "the batch ran although the request leading it was cancelled")
        _ = await leader.value
        #expect(query.calls.withLock { $0.map(\.count) } == [1, 2])
    }

    @Test("waiters for one key share a place in the batch")
    func duplicateKeysGoOnce() async throws {
        let batcher = LookupBatcher<[UInt8]>(limit: 1, maximumBatch: 2, maximumWait: .seconds(30))
        let query = RecordingQuery(holdFirst: true)
        let answers = try await Self.holdingFirst(1, then: [2, 2, 3, 2], on: batcher, query)
        #expect(answers.count == 5)
        for answer in answers { #expect(answer.rows == [answer.byte]) }
        #expect(query.calls.withLock { $0 } == [[1], [2, 3]], "four waiters, two keys, one query")
    }
}
