import BenchmarkSupport
import CacheEvents
import Dashboard
import Foundation
import SessionLog

/// What happens to one event after the client publishes it: delivery to a subscriber, the
/// dashboard's fold, and the session log's encoding and decoding. Every path takes the same
/// stream: the client's own events, repeated with new sequence numbers, request IDs and times
/// so that every round looks like new requests.
struct EventPaths {
    /// Events per counted batch.
    static let operations = 1000
    let stream: [CacheEvent]

    /// Enough events for the warm-up and the batches of ``AllocationCounter/measure(_:batches:operations:warmup:_:)``.
    init(sample: [CacheEvent], count: Int = 13 * EventPaths.operations) {
        precondition(!sample.isEmpty, "no sample events")
        let span = (sample.compactMap(\.requestID).max() ?? 0) + 1
        let period = (sample.last?.time ?? 0) + 0.001
        var events: [CacheEvent] = []
        events.reserveCapacity(count)
        var round = 0
        while events.count < count {
            for event in sample where events.count < count {
                events.append(CacheEvent(
                    seq: UInt64(events.count + 1), time: event.time + Double(round) * period,
                    requestID: event.requestID.map { $0 + UInt64(round) * span }, kind: event.kind))
            }
            round += 1
        }
        stream = events
    }

    func measure(directory: String) throws -> [AllocationCount] {
        [delivery(), fold(), try encode(), try decode(directory: directory)]
    }

    /// `publish` on a bus with one dashboard subscriber, which takes the event.
    private func delivery() -> AllocationCount {
        let bus = EventBus()
        let subscription = bus.subscribe(.dashboard)
        var index = 0
        defer { subscription.finish() }
        return AllocationCounter.measure(Figure.delivery.name, operations: Self.operations) {
            for _ in 0..<Self.operations {
                let event = stream[index]
                bus.publish(event.kind, requestID: event.requestID)
                _ = subscription.take()
                index += 1
            }
        }
    }

    /// `DashboardState.apply`.
    private func fold() -> AllocationCount {
        var state = DashboardState()
        var index = 0
        let count = AllocationCounter.measure(Figure.fold.name, operations: Self.operations) {
            for _ in 0..<Self.operations {
                state.apply(stream[index])
                index += 1
            }
        }
        // Read the state, so that none of the folding can be left out as unused.
        precondition(state.traffic.counters.requests > 0, "the dashboard counted no requests")
        return count
    }

    /// `SessionLogWriter.write`, to /dev/null (its buffered writes included).
    private func encode() throws -> AllocationCount {
        let writer = try SessionLogWriter(path: "/dev/null", header: SessionLogHeader(startedAt: Date(), redacted: true))
        defer { try? writer.close() }
        var index = 0
        return AllocationCounter.measure(Figure.encode.name, operations: Self.operations) {
            for _ in 0..<Self.operations {
                writer.write(stream[index])
                index += 1
            }
        }
    }

    /// `SessionLogReader.load` of a log of ``operations`` events, per event (the file's own
    /// costs, opening it and reading the header, shared among them).
    private func decode(directory: String) throws -> AllocationCount {
        let path = directory + "/decode.jsonl"
        let writer = try SessionLogWriter(path: path, header: SessionLogHeader(startedAt: Date(), redacted: true))
        writer.write(contentsOf: stream.prefix(Self.operations))
        try writer.close()
        return try AllocationCounter.measure(Figure.decode.name, operations: Self.operations) {
            let log = try SessionLogReader.load(path)
            precondition(log.events.count == Self.operations, "read \(log.events.count) of \(Self.operations) events")
        }
    }
}
