import CacheEvents
import Foundation
import Synchronization
import Testing

/// The one way to receive events: ``EventSubscription``, one at a time, in batches, or taken
/// without waiting.
@Suite("Event subscriptions", .timeLimit(.minutes(1)))
struct EventSubscriptionTests {
    private static func kind(_ index: Int) -> CacheEventKind { .dropped(Dropped(count: index)) }

    @Test("initial events come first, then every published event in seq order, in bursts")
    func orderAndInitial() async {
        let bus = EventBus()
        let initial: [CacheEventKind] = [.error(ErrorInfo(message: "snapshot"))]
        let batches = bus.subscribe(.lossless(bufferSize: 100_000), initial: initial).batches
        let reader = Task {
            var events: [CacheEvent] = []
            var bursts = 0
            for await batch in batches {
                #expect(!batch.isEmpty)
                bursts += 1
                events += batch
            }
            return (events, bursts)
        }
        for index in 1...20_000 { bus.publish(Self.kind(index)) }
        bus.finish()
        let (events, bursts) = await reader.value
        #expect(events.first?.kind == initial[0])
        #expect(events.dropFirst().map(\.seq) == Array(1...20_000))
        #expect(bursts < events.count, "events published while the reader is busy should arrive together")
    }

    @Test("one at a time: the subscription hands out the same events in the same order")
    func oneAtATime() async {
        let bus = EventBus()
        let events = bus.subscribe(.lossless(bufferSize: 1_000))
        let reader = Task {
            var seqs: [UInt64] = []
            for await event in events { seqs.append(event.seq) }
            return seqs
        }
        for index in 1...500 { bus.publish(Self.kind(index)) }
        bus.finish()
        #expect(await reader.value == Array(1...500))
    }

    @Test("an idle subscriber is woken by the next event, without polling")
    func idleSubscriberWakes() async {
        let bus = EventBus()
        var iterator = bus.subscribe().batches.makeAsyncIterator()
        let published = Task {
            // Publish only once the reader is surely waiting: nothing else would wake it.
            try? await Task.sleep(for: .milliseconds(20))
            bus.publish(Self.kind(7))
        }
        let batch = await iterator.next()
        #expect(batch?.map(\.kind) == [Self.kind(7)])
        await published.value
    }

    @Test("a subscription under load, lossy or lossless, gets a batch at most every 20 ms, so publishers wake nobody",
          arguments: [EventDelivery.dashboard, .recorder])
    func batchingUnderLoad(delivery: EventDelivery) async {
        let bus = EventBus()
        let batches = bus.subscribe(delivery).batches
        let reader = Task {
            var count = 0
            var events = 0
            for await batch in batches {
                count += 1
                events += batch.count
                if events >= 2_000 { break }
            }
            return count
        }
        let clock = ContinuousClock()
        let start = clock.now
        for index in 1...2_000 {
            bus.publish(Self.kind(index))
            if index % 100 == 0 { try? await Task.sleep(for: .milliseconds(10)) }
        }
        let batchCount = await reader.value
        let elapsed = clock.now - start
        // At most one batch per 20 ms, plus the first, however fast the events came.
        #expect(batchCount <= Int(elapsed / .milliseconds(20)) + 1)
        #expect(batchCount >= 2)
    }

    @Test("a finished subscription hands over what is left at once, without its batching pause")
    func finishSkipsThePause() async {
        // Right after a batch the next would wait out the 20 ms; once finished it does not.
        // The quickest of five tries, so that a busy machine's late wake-up cannot fail it.
        var quickest = Duration.seconds(1)
        for _ in 0..<5 {
            let bus = EventBus()
            let subscription = bus.subscribe(.recorder)
            var iterator = subscription.batches.makeAsyncIterator()
            bus.publish(Self.kind(1))
            #expect(await iterator.next()?.count == 1)
            bus.publish(Self.kind(2))
            subscription.finish()
            let start = ContinuousClock.now
            #expect(await iterator.next()?.map(\.seq) == [2])
            #expect(await iterator.next() == nil)
            quickest = min(quickest, ContinuousClock.now - start)
        }
        #expect(quickest < .milliseconds(15))
    }

    @Test("a consumer that falls behind gets dropped(count) in place of what did not fit")
    func overflowIsCounted() async {
        let bus = EventBus()
        var iterator = bus.subscribe(.lossy(bufferSize: 10)).batches.makeAsyncIterator()
        for index in 1...25 { bus.publish(Self.kind(index)) }
        // What fitted, then the marker for the 15 that did not, in their place (the last one's seq).
        let first = await iterator.next()
        #expect(first?.map(\.seq) == Array(1...10) + [25])
        #expect(first?.last?.kind == .dropped(Dropped(count: 15)))
        bus.publish(Self.kind(26))
        #expect(await iterator.next()?.map(\.seq) == [26])
    }

    @Test("cancelling the consumer's task ends the sequence and the bus forgets the subscriber")
    func cancellationUnsubscribes() async {
        let bus = EventBus()
        let batches = bus.subscribe().batches
        #expect(bus.hasSubscribers)
        let (progress, reported) = AsyncStream.makeStream(of: Int.self)
        let reader = Task {
            var count = 0
            for await batch in batches {
                count += batch.count
                reported.yield(count)
            }
            return count
        }
        bus.publish(Self.kind(1))
        var seen = progress.makeAsyncIterator()
        #expect(await seen.next() == 1)
        reader.cancel()
        #expect(await reader.value == 1)
        #expect(!bus.hasSubscribers)
    }

    @Test("letting go of the sequence ends the subscription")
    func releaseUnsubscribes() async {
        let bus = EventBus()
        do {
            let batches = bus.subscribe().batches
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
        let subscription = bus.subscribe()
        bus.publish(Self.kind(1))
        bus.publish(Self.kind(2))
        subscription.finish()
        bus.publish(Self.kind(3))
        var iterator = subscription.batches.makeAsyncIterator()
        #expect(await iterator.next()?.map(\.seq) == [1, 2])
        #expect(await iterator.next() == nil)
    }

    @Test("the bus stamps events on the clock it was given")
    func injectedClock() {
        let start = Date(timeIntervalSince1970: 1_000_000)
        let clock = ManualDate(start)
        let bus = EventBus(now: { clock.now })
        let subscription = bus.subscribe()
        clock.advance(by: 42.5)
        bus.publish(Self.kind(1))
        #expect(bus.sessionStart == start)
        #expect(subscription.take().map(\.time) == [42.5])
    }
}

/// A wall clock a test moves by hand.
private final class ManualDate: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: Double) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
