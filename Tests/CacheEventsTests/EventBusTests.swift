import CacheStore
import CacheEvents
import Foundation
import Testing

@Suite("Event bus", .timeLimit(.minutes(2)))
struct EventBusTests {
    private static func kind(_ index: Int) -> CacheEventKind { .dropped(Dropped(count: index)) }

    @Test("a lossy subscriber that does not read gets dropped(count) later, with the right count")
    func lossyDrops() async throws {
        let bus = EventBus()
        var iterator = bus.subscribe(.lossy(bufferSize: 10)).makeAsyncIterator()
        for index in 1...15 { bus.publish(Self.kind(index)) }
        var seqs: [UInt64] = []
        for _ in 0..<10 { seqs.append(try #require(await iterator.next()).seq) }
        #expect(seqs == Array(1...10))
        bus.publish(Self.kind(16))
        let marker = await iterator.next()
        #expect(marker?.kind == .dropped(Dropped(count: 5)))
        #expect(marker?.seq == 15)
        #expect(await iterator.next()?.seq == 16)
    }

    /// The marker came only with a later event: a subscriber of a client gone quiet, or shut
    /// down, never learned of the loss (a hunt of 27 November).
    @Test("a lossy subscriber learns of its loss when it takes what is there, and when the bus finishes, without a later event")
    func dropsToldWithoutALaterEvent() async throws {
        let bus = EventBus()
        let quiet = bus.subscribe(.lossy(bufferSize: 8))
        let ending = bus.subscribe(.lossy(bufferSize: 8))
        for index in 1...20 { bus.publish(Self.kind(index)) }
        let taken = quiet.take()
        #expect(taken.map(\.seq) == Array(1...8) + [20])
        #expect(taken.last?.kind == .dropped(Dropped(count: 12)))
        #expect(quiet.take().isEmpty, "told once")

        bus.finish()
        var seen: [CacheEventKind] = []
        for await event in ending { seen.append(event.kind) }
        #expect(seen.count == 9)
        #expect(seen.last == .dropped(Dropped(count: 12)))
    }

    /// A subscription made after the client shut down waited for ever.
    @Test("a subscription made after the bus finished ends after its initial events; an observer then sees nothing")
    func subscribeAfterFinish() async throws {
        let bus = EventBus()
        bus.finish()
        let late = bus.subscribe(.dashboard, initial: [Self.kind(1), Self.kind(2)])
        let ended = Task {
            var count = 0
            for await _ in late { count += 1 }
            return count
        }
        let outcome = await withTaskGroup(of: Int?.self) { group in
            group.addTask { await ended.value }
            group.addTask {
                try? await Task.sleep(for: .seconds(5))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            ended.cancel()
            return first
        }
        #expect(outcome == 2, "the initial events, then the end")
        #expect(late.isFinished)
    }

    @Test("a lossless subscriber gets every event in seq order, from many publishers")
    func losslessOrder() async {
        let bus = EventBus()
        let stream = bus.subscribe(.recorder)
        let reader = Task {
            var seqs: [UInt64] = []
            for await event in stream { seqs.append(event.seq) }
            return seqs
        }
        await withTaskGroup(of: Void.self) { group in
            for publisher in 0..<8 {
                group.addTask {
                    for index in 0..<5_000 { bus.publish(Self.kind(publisher * 10_000 + index)) }
                }
            }
        }
        bus.finish()
        let seqs = await reader.value
        #expect(seqs == Array(1...40_000))
    }

    @Test("publish never blocks on stalled subscribers")
    func neverBlocks() async {
        let bus = EventBus()
        let stalledLossy = bus.subscribe(.lossy(bufferSize: 5))
        let stalledLossless = bus.subscribe(.lossless(bufferSize: 100))
        let stalledBatches = bus.subscribe(.lossless(bufferSize: 50))
        let clock = ContinuousClock()
        let start = clock.now
        for index in 0..<200_000 { bus.publish(Self.kind(index)) }
        #expect(clock.now - start < .seconds(5))
        var iterator = stalledLossless.makeAsyncIterator()
        for expected in 1...100 { #expect(await iterator.next()?.seq == UInt64(expected)) }
        bus.publish(Self.kind(0))
        #expect(await iterator.next()?.kind == .dropped(Dropped(count: 199_900)))
        // What is there, and the loss: the marker comes with it, not with the next event.
        let taken = stalledBatches.take()
        #expect(taken.count == 51)
        #expect(taken.last?.kind == .dropped(Dropped(count: 199_951)))
        #expect(taken.last?.seq == 200_001)
        bus.publish(Self.kind(0))
        #expect(stalledBatches.take().map(\.kind) == [Self.kind(0)])
        _ = stalledLossy
    }

    @Test("many subscribers each get everything")
    func manySubscribers() async {
        let bus = EventBus()
        let streams = (0..<64).map { _ in bus.subscribe(.lossless(bufferSize: 10_000)) }
        for index in 0..<1_000 { bus.publish(Self.kind(index)) }
        bus.finish()
        await withTaskGroup(of: [UInt64].self) { group in
            for stream in streams {
                group.addTask { await stream.reduce(into: []) { $0.append($1.seq) } }
            }
            var received = 0
            for await seqs in group {
                #expect(seqs == Array(1...1_000))
                received += 1
            }
            #expect(received == 64)
        }
        #expect(!bus.hasSubscribers)
    }

    @Test("taking without waiting: in order, finish stops it, and the bus forgets it")
    func batches() {
        let bus = EventBus()
        let batches = bus.subscribe(.recorder, initial: [.storeStats(StoreStats(memoryUsed: 0, memoryCapacity: 0, diskUsed: 0, diskCapacity: 0, entryCount: 0))])
        #expect(bus.hasSubscribers)
        for index in 0..<10 { bus.publish(Self.kind(index)) }
        let first = batches.take()
        #expect(first.count == 11 && first[0].kind.name == "storeStats" && first.dropFirst().map(\.seq) == Array(1...10))
        #expect(batches.take().isEmpty)
        bus.publish(Self.kind(10))
        #expect(!batches.isFinished)
        batches.finish()
        bus.publish(Self.kind(11))
        #expect(!batches.isFinished, "one event still waits")
        #expect(batches.take().map(\.seq) == [11])
        #expect(batches.isFinished)
        #expect(!bus.hasSubscribers)
        let other = bus.subscribe(.recorder)
        bus.finish()
        #expect(other.isFinished)
    }

    @Test("a subscription can be ended on its own, its buffered events still delivered")
    func endOneSubscription() async {
        let bus = EventBus()
        let subscription = bus.subscribe(.recorder)
        let other = bus.subscribe(.recorder)
        for index in 0..<3 { bus.publish(Self.kind(index)) }
        subscription.finish()
        bus.publish(Self.kind(3))
        let seqs = await subscription.reduce(into: [UInt64]()) { $0.append($1.seq) }
        #expect(seqs == [1, 2, 3])
        bus.finish()
        #expect(await other.reduce(0) { count, _ in count + 1 } == 4)
    }
}
