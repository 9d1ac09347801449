import CacheAttach
import CacheEvents
import SessionLog
import Foundation
import Testing

/// A dashboard that connects and then stops reading must not slow the app; it learns what it
/// missed from a `dropped` event.
@Suite("Slow dashboards", .timeLimit(.minutes(2)))
struct SlowDashboardTests {
    /// About 1 KiB per event, so a stalled socket's kernel and channel buffers fill after a few
    /// hundred events.
    static let payload = String(repeating: "p", count: 1_000)

    /// Seconds taken to publish `count` events.
    static func timePublishing(_ count: Int, on bus: EventBus, label: String) -> Double {
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for index in 1...count { bus.publish(.error(ErrorInfo(message: "\(label) \(index) \(payload)"))) }
        }
        let (seconds, attoseconds) = elapsed.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    @Test("a stalled dashboard does not slow publishing, and later receives dropped(count)")
    func stalledDashboard() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = MiniStore()
        let server = try await store.publish(at: directory.file("shop.sock"), bufferSize: 1_000)
        let bus = store.bus

        let count = 5_000
        let baseline = Self.timePublishing(count, on: bus, label: "baseline")

        // The stalled dashboard reads the greeting, then nothing.
        let stalled = try RawLineSocket(path: server.path)
        _ = try await stalled.readLine()
        let withStalled = Self.timePublishing(count, on: bus, label: "stalled")

        // Generous on purpose: only an app that waits for the stalled reader fails this.
        #expect(withStalled < baseline * 10 + 0.5, "publishing took \(withStalled) s with a stalled dashboard, \(baseline) s without")

        // The stalled dashboard starts reading: the buffered events, then how many it lost.
        // The marker rides in front of the first event that fits again, so keep publishing.
        let ticker = Task {
            var ticks = 0
            while !Task.isCancelled {
                ticks += 1
                bus.publish(.error(ErrorInfo(message: "tick \(ticks)")))
                try? await Task.sleep(for: .milliseconds(5))  // pacing a steady publisher, not ordering
            }
            return ticks
        }
        let lines = try await stalled.readLines(timeout: 10) { $0.contains("tick") }
        ticker.cancel()
        _ = await ticker.value

        // The snapshot a subscription starts with repeats the seq of the last event before it.
        let events = Array(lines.compactMap(RawServerLine.event).drop { ["entries", "storeStats"].contains($0.kind.name) })
        let markers = events.compactMap { event -> Dropped? in
            if case .dropped(let dropped) = event.kind { return dropped }
            return nil
        }
        #expect(!markers.isEmpty, "no dropped event among \(events.count) events")
        #expect(markers.allSatisfy { $0.count > 0 })
        // Every event is accounted for: each one arrives, or a `dropped` marker (carrying the
        // seq of the last event it stands for) counts it.
        var expected = try #require(events.first).seq
        for event in events {
            if case .dropped(let dropped) = event.kind {
                expected += UInt64(dropped.count)
                #expect(event.seq == expected - 1, "marker \(event.seq) should follow \(expected - 1)")
            } else {
                #expect(event.seq == expected, "event \(event.seq) where \(expected) was due")
                expected = event.seq + 1
            }
        }
        #expect(lines.last?.contains("tick") == true)
        await server.stop()
    }
}
