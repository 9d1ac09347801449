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
        try await withThrowingTaskGroup(of: (UInt8, [UInt8]?).self) { group in
            group.addTask { (1, await batcher.rows(for: Self.digest(1), query: query.run, none: [])) }
            try await Self.waitUntil { query.calls.withLock { $0.count } == 1 }
            for byte: UInt8 in [2, 3, 99, 5, 6] {
                group.addTask { (byte, await batcher.rows(for: Self.digest(byte), query: query.run, none: [])) }
            }
            try await Self.waitUntil { batcher.waiting == 5 }
            await query.release()
            var answers: [UInt8: [UInt8]?] = [:]
            for try await (byte, rows) in group { answers[byte] = rows }
            #expect(answers == [1: [1], 2: [2], 3: [3], 99: [], 5: [5], 6: [6]], "each its own rows; 99 none")
        }
        let calls = query.calls.withLock { $0 }
        #expect(calls.count == 2, "the five waiters went in one query: \(calls)")
        #expect(calls.last.map { Set($0) } == [2, 3, 99, 5, 6])
        #expect(batcher.largestBatch == 5)
    }

    @Test("a batch carries at most maximumBatch keys; the rest go in the next")
    func batchesAreBounded() async throws {
        let batcher = LookupBatcher<[UInt8]>(limit: 1, maximumBatch: 4, maximumWait: .seconds(30))
        let query = RecordingQuery(holdFirst: true)
        try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
            group.addTask { await batcher.rows(for: Self.digest(0), query: query.run, none: []) }
            try await Self.waitUntil { query.calls.withLock { $0.count } == 1 }
            for byte in UInt8(1)...10 { group.addTask { await batcher.rows(for: Self.digest(byte), query: query.run, none: []) } }
            try await Self.waitUntil { batcher.waiting == 10 }
            await query.release()
            var answered = 0
            for try await rows in group where rows != nil { answered += 1 }
            #expect(answered == 11)
        }
        #expect(query.calls.withLock { $0.map(\.count) } == [1, 4, 4, 2])
    }

    @Test("a failed query is a failure for every lookup it carried, and the next batch still runs")
    func failureReachesTheWholeBatch() async throws {
        let batcher = LookupBatcher<[UInt8]>(limit: 1, maximumBatch: 8, maximumWait: .seconds(30))
        let query = RecordingQuery(holdFirst: true, fails: true)
        try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
            group.addTask { await batcher.rows(for: Self.digest(1), query: query.run, none: []) }
            try await Self.waitUntil { query.calls.withLock { $0.count } == 1 }
            for byte: UInt8 in [2, 3] { group.addTask { await batcher.rows(for: Self.digest(byte), query: query.run, none: []) } }
            try await Self.waitUntil { batcher.waiting == 2 }
            await query.release()
            for try await rows in group { #expect(rows == nil) }
        }
        #expect(query.calls.withLock { $0.map(\.count) } == [1, 2], "the two waiters went together")
        // The slot was given back: a new lookup runs at once.
        let healthy = RecordingQuery(holdFirst: false)
        #expect(await batcher.rows(for: Self.digest(4), query: healthy.run, none: []) == [4])
    }

    @Test("a lookup that waited longer than maximumWait is answered as a miss when the query ends")
    func tooLongAWaitIsAMiss() async throws {
        let batcher = LookupBatcher<[UInt8]>(limit: 1, maximumBatch: 8, maximumWait: .milliseconds(50))
        let query = RecordingQuery(holdFirst: true)
        try await withThrowingTaskGroup(of: (UInt8, [UInt8]?).self) { group in
            group.addTask { (1, await batcher.rows(for: Self.digest(1), query: query.run, none: [])) }
            try await Self.waitUntil { query.calls.withLock { $0.count } == 1 }
            group.addTask { (2, await batcher.rows(for: Self.digest(2), query: query.run, none: [])) }
            try await Self.waitUntil { batcher.waiting == 1 }
            try await Task.sleep(for: .milliseconds(100))
            await query.release()
            var answers: [UInt8: [UInt8]?] = [:]
            for try await (byte, rows) in group { answers[byte] = rows }
            #expect(answers[1] == .some([1]), "1 answered")
            #expect(answers[2] == .some(nil), "2 gave up")
        }
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
        try await withThrowingTaskGroup(of: (UInt8, [UInt8]?).self) { group in
            group.addTask { (1, await batcher.rows(for: Self.digest(1), query: query.run, none: [])) }
            try await Self.waitUntil { query.calls.withLock { $0.count } == 1 }
            for (index, byte) in [UInt8(2), 2, 3, 2].enumerated() {
                group.addTask { (byte, await batcher.rows(for: Self.digest(byte), query: query.run, none: [])) }
                try await Self.waitUntil { batcher.waiting == index + 1 }
            }
            await query.release()
            var answered = 0
            for try await (byte, rows) in group {
                #expect(rows == [byte])
                answered += 1
            }
            #expect(answered == 5)
        }
        #expect(query.calls.withLock { $0 } == [[1], [2, 3]], "four waiters, two keys, one query")
    }
}
