import BenchmarkSupport
import CacheEvents
import SessionLog
import Foundation

/// Recording: what a recorder adds to `EventBus.publish` on the request path, how fast the
/// recorder drains, and the hand-written encoder against `JSONEncoder`.
enum RecordingBenchmarks {
    /// A realistic mix of event kinds to publish.
    static func sampleKinds(_ count: Int) -> [(CacheEventKind, UInt64?)] {
        var workload = SyntheticWorkload(seed: 7)
        var kinds: [(CacheEventKind, UInt64?)] = []
        workload.generate(events: count) { kinds.append(($0.kind, $0.requestID)) }
        return kinds
    }

    static func run(directory: String) async throws -> [Bool] {
        let kinds = sampleKinds(10_000)
        var results: [Bool] = []

        let bare = EventBus()
        var index = 0
        let none = measureBoth(samples: 40, iterations: 10_000) {
            let (kind, id) = kinds[index % kinds.count]
            bare.publish(kind, requestID: id)
            index += 1
        }

        let bus = EventBus()
        let path = directory + "/recording-bench.jsonl"
        let recorder = try SessionRecorder(bus: bus, path: path)
        index = 0
        let recorded = measureBoth(samples: 40, iterations: 10_000) {
            let (kind, id) = kinds[index % kinds.count]
            bus.publish(kind, requestID: id)
            index += 1
        }
        let clock = ContinuousClock()
        let closeStart = clock.now
        let recording = try await recorder.close()
        let drain = (clock.now - closeStart).seconds
        print("info publish per event, median of 40 × 10,000 (load average \(loadAverage())): no subscriber "
            + "\(Measurement.format(none.wall)) wall / \(Measurement.format(none.cpu)) CPU; recorder subscribed "
            + "\(Measurement.format(recorded.wall)) wall / \(Measurement.format(recorded.cpu)) CPU")
        // The cost is the publisher's extra CPU work; on a busy two-core machine the wall-clock
        // difference also includes waiting while the recorder's thread has the other core.
        let cost = max(0, recorded.cpu - none.cpu)
        let wallCost = max(0, recorded.wall - none.wall)
        let costOK = cost <= 1e-6 && wallCost <= 1e-6
        print("\(costOK ? "PASS" : "FAIL") recording cost on the request path: +\(Measurement.format(cost)) CPU, "
            + "+\(Measurement.format(wallCost)) wall per event ≤ 1 µs")
        results.append(costOK)
        print("info recorder wrote \(recording.eventCount) events, \(recording.byteCount / 1_048_576) MiB; close() drained the rest in \(String(format: "%.2f", drain)) s")

        results.append(try await throughput(directory: directory, kinds: kinds))
        try encoderComparison(directory: directory)
        return results
    }

    /// Publishes a million events as fast as possible and measures until they are on disk.
    private static func throughput(directory: String, kinds: [(CacheEventKind, UInt64?)]) async throws -> Bool {
        let bus = EventBus()
        let recorder = try SessionRecorder(bus: bus, path: directory + "/recording-throughput.jsonl")
        let clock = ContinuousClock()
        let start = clock.now
        let count = 1_000_000
        for index in 0..<count {
            let (kind, id) = kinds[index % kinds.count]
            bus.publish(kind, requestID: id)
        }
        let published = (clock.now - start).seconds
        let recording = try await recorder.close()
        let seconds = (clock.now - start).seconds
        let rate = Double(recording.eventCount) / seconds
        let ok = rate >= 100_000 && recording.eventCount == count
        print("\(ok ? "PASS" : "FAIL") recorder throughput: \(String(format: "%.0f", rate)) events/s written ≥ 100000 "
            + "(\(recording.eventCount) events on disk \(String(format: "%.2f", seconds)) s after the first publish; publishing took \(String(format: "%.2f", published)) s)")
        return ok
    }

    /// The recorder's encoder (through SessionLogWriter) against one JSONEncoder call per line.
    private static func encoderComparison(directory: String) throws {
        var events: [CacheEvent] = []
        var workload = SyntheticWorkload(seed: 9)
        workload.generate(events: 200_000) { events.append($0) }
        let clock = ContinuousClock()
        var start = clock.now
        // Written to /dev/null so both figures are encoding alone.
        let writer = try SessionLogWriter(path: "/dev/null", header: SessionLogHeader(startedAt: Date(), redacted: true))
        writer.write(contentsOf: events)
        try writer.close()
        let fast = Double(events.count) / (clock.now - start).seconds
        start = clock.now
        let encoder = JSONEncoder()
        var bytes = 0
        for event in events { bytes += (try encoder.encode(event)).count + 1 }
        let slow = Double(events.count) / (clock.now - start).seconds
        print("info encoding: hand-written \(String(format: "%.0f", fast)) events/s vs JSONEncoder \(String(format: "%.0f", slow)) events/s (one encode() per line; \(bytes / 1_048_576) MiB)")
    }
}
