import CacheEvents
import Foundation
import HTTPCaching
import Synchronization
import Testing
import CacheScopeApp

/// `StatsStream`, the writer behind `--stats-every SECONDS --json`.
@Suite("Stats stream")
struct StatsStreamTests {
    /// What the stream wrote, line by line; fails the writes after `failAfter` lines when set.
    final class Output: Sendable {
        let lines = Mutex<[String]>([])
        let failAfter: Int?

        init(failAfter: Int? = nil) { self.failAfter = failAfter }

        func write(_ text: String) throws {
            try lines.withLock { lines in
                if let failAfter, lines.count >= failAfter { throw CocoaError(.fileWriteUnknown) }
                lines.append(text)
            }
        }

        var objects: [[String: Any]] {
            lines.withLock { $0 }.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
    }

    private static func finished(_ seq: Int, at time: Double, _ outcome: CacheOutcome) -> CacheEvent {
        CacheEvent(seq: UInt64(seq), time: time, requestID: UInt64(seq), kind: .requestFinished(RequestFinished(
            status: 200, latency: 0.01, bytesFromNetwork: 0, bytesFromCache: 0, outcome: outcome, reason: "")))
    }

    @Test("Recorded events: one JSON line per interval end on the log's clock, then the final line")
    func recorded() throws {
        let output = Output()
        let stream = try StatsStream(every: 2, write: output.write)
        for (index, time) in [0.5, 1.5, 2.5, 7.0].enumerated() { stream.applyRecorded(Self.finished(index + 1, at: time, .hit)) }
        stream.finish(live: false)
        let objects = output.objects
        #expect(output.lines.withLock { $0 }.allSatisfy { $0.hasSuffix("}\n") })
        #expect(objects.map { $0["time"] as? Double } == [2, 4, 6, 7])
        #expect(objects.map { $0["requests"] as? Int } == [2, 3, 3, 4])
        #expect(objects.map { $0["final"] as? Bool } == [false, false, false, true])
    }

    @Test("A write that fails (the pipe's reader left) stops the output, not the stream")
    func failedWrite() throws {
        let output = Output(failAfter: 1)
        let stream = try StatsStream(every: 1, write: output.write)
        for index in 0..<5 { stream.applyRecorded(Self.finished(index + 1, at: Double(index) + 0.5, .miss)) }
        stream.finish(live: false)
        #expect(output.lines.withLock { $0.count } == 1)
    }

    @Test("Live: a quiet interval still gets its line from tick()")
    func ticks() async throws {
        let output = Output()
        let stream = try StatsStream(every: 0.05, write: output.write)
        stream.apply(Self.finished(1, at: 0.01, .hit))
        try await Task.sleep(for: .milliseconds(300))
        stream.tick()
        #expect(output.lines.withLock { $0.count } >= 3, "no lines for the quiet intervals")
        stream.finish(live: true)
        #expect(output.objects.last?["final"] as? Bool == true)
    }
}
