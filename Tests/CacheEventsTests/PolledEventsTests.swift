import CacheEvents
import Foundation
import Synchronization
import Testing

/// The pull-based subscriptions the dashboard and `CachingClient.subscribe` use.
@Suite("Polled event batches", .timeLimit(.minutes(2)))
struct PolledEventsTests {
    private static func kind(_ index: Int) -> CacheEventKind { .dropped(Dropped(count: index)) }

    @Test("initial events come first, then every published event in seq order, in bursts")
    func orderAndInitial() async throws {
        let bus = EventBus()
        let initial: [CacheEventKind] = [.error(ErrorInfo(message: "snapshot"))]
        let batches = bus.polledBatches(bufferSize: 100_000, initial: initial, interval: .milliseconds(1))
        // The reader reports the last seq it has, so the publisher can wait for it (no sleep).
        let lastSeen = Mutex<UInt64>(0)
        let reader = Task {
            var events: [CacheEvent] = []
            var bursts = 0
            for await batch in batches {
                #expect(!batch.isEmpty)
                bursts += 1
                events += batch
                if let last = batch.last?.seq { lastSeen.withLock { $0 = last } }
            }
            return (events, bursts)
        }
        for index in 1...20_000 {
            bus.publish(Self.kind(index))
            // Every 5,000 events, wait until the reader has them all before publishing more:
            // so publishing and reading interleave, in at least four bursts.
            if index % 5_000 == 0 {
                try await Self.waitUntil("the reader has seq \(index)") { lastSeen.withLock { $0 } >= UInt64(index) }
            }
        }
        bus.finish()
        let (events, bursts) = await reader.value
        #expect(events.first?.kind == initial[0])
        #expect(events.dropFirst().map(\.seq) == Array(1...20_000))
        #expect(bursts >= 4, "each block of 5,000 arrives in a burst of its own at least")
        #expect(bursts < events.count, "events should arrive in bursts, not one by one")
    }

    @Test("one at a time: PolledEvents hands out the same events in the same order")
    func flattened() async {
        let bus = EventBus()
        let events = PolledEvents(bus.polledBatches(bufferSize: 1_000, interval: .milliseconds(1)))
        let reader = Task {
            var seqs: [UInt64] = []
            for await event in events { seqs.append(event.seq) }
            return seqs
        }
        for index in 1...500 { bus.publish(Self.kind(index)) }
        bus.finish()
        #expect(await reader.value == Array(1...500))
    }

    @Test("a consumer that falls behind gets dropped(count) in place of what did not fit")
    func overflowIsCounted() async {
        let bus = EventBus()
        var iterator = bus.polledBatches(bufferSize: 10, interval: .milliseconds(1)).makeAsyncIterator()
        for index in 1...25 { bus.publish(Self.kind(index)) }
        #expect(await iterator.next()?.map(\.seq) == Array(1...10))
        bus.publish(Self.kind(26))
        let next = await iterator.next()
        #expect(next?.first?.kind == .dropped(Dropped(count: 15)))
        #expect(next?.first?.seq == 25)
        #expect(next?.last?.seq == 26)
    }

    @Test("cancelling the consumer's task ends the sequence and the bus forgets the subscriber")
    func cancellationUnsubscribes() async throws {
        let bus = EventBus()
        let batches = bus.polledBatches(interval: .milliseconds(5))
        #expect(bus.hasSubscribers)
        let received = Mutex(0)
        let reader = Task {
            for await batch in batches { received.withLock { $0 += batch.count } }
            return received.withLock { $0 }
        }
        bus.publish(Self.kind(1))
        // Cancel only once the event has been received (a handshake, not a sleep).
        try await Self.waitUntil("the reader has the event") { received.withLock { $0 } == 1 }
        reader.cancel()
        #expect(await reader.value == 1)
        #expect(!bus.hasSubscribers)
    }

    @Test("letting go of the sequence ends the subscription")
    func releaseUnsubscribes() async {
        let bus = EventBus()
        do {
            let batches = bus.polledBatches()
            var iterator = batches.makeAsyncIterator()
            bus.publish(Self.kind(1))
            #expect(await iterator.next()?.count == 1)
            #expect(bus.hasSubscribers)
        }
        #expect(!bus.hasSubscribers)
        bus.publish(Self.kind(2))  // nobody to deliver to: must not fail
    }

    @Test("finish() ends the sequence after what was already buffered")
    func finishKeepsBuffered() async {
        let bus = EventBus()
        let batches = bus.polledBatches(interval: .milliseconds(1))
        bus.publish(Self.kind(1))
        bus.publish(Self.kind(2))
        batches.finish()
        bus.publish(Self.kind(3))
        var iterator = batches.makeAsyncIterator()
        #expect(await iterator.next()?.map(\.seq) == [1, 2])
        #expect(await iterator.next() == nil)
    }

    /// Polls `condition` every millisecond until it holds; throws after 20 s.
    private static func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw WaitTimeout(description: "gave up waiting until \(what)") }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    private struct WaitTimeout: Error, CustomStringConvertible { let description: String }
}
