import BenchmarkSupport
import CacheEvents
import DemoOrigin
import SessionLog
import Foundation

/// Replay: folding into TrafficCounters as fast as possible, and seek latency.
enum ReplayBenchmarks {
    static func run(path: String) throws -> [Bool] {
        let log = try SessionLogReader.load(path)
        let clock = ContinuousClock()
        var start = clock.now
        var replay = SessionReplayer<TrafficCounters>(log: log)
        let setup = (clock.now - start).seconds
        print("info replayer setup (one fold pass for \(replay.checkpointInterval)-event checkpoints): \(String(format: "%.3f", setup)) s")

        // As fast as possible, in frame-sized steps as the UI would call it.
        replay.speed = .unlimited
        replay.play()
        start = clock.now
        var steps = 0
        while !replay.isAtEnd {
            replay.advance(byWallSeconds: 1.0 / 30)
            steps += 1
        }
        let seconds = (clock.now - start).seconds
        let rate = Double(log.events.count) / seconds
        let rateOK = rate >= 1_000_000
        print("\(rateOK ? "PASS" : "FAIL") replay as fast as possible into TrafficCounters: \(String(format: "%.0f", rate)) events/s ≥ 1000000 "
            + "(\(log.events.count) events in \(steps) advances, \(String(format: "%.3f", seconds)) s)")
        let expected = TrafficCounters(folding: log.events)
        let sameOK = replay.state == expected
        print("\(sameOK ? "PASS" : "FAIL") replayed counters equal a direct fold (\(expected.requests) requests)")

        // Seeks to random times, from wherever the previous seek left the playhead.
        var random = SplitMix64(seed: 3)
        var latencies: [Double] = []
        for _ in 0..<200 {
            let fraction = Double(random.next() % 1_000_000) / 1_000_000
            let seekStart = clock.now
            replay.seek(toFraction: fraction)
            latencies.append((clock.now - seekStart).seconds)
        }
        latencies.sort()
        let median = latencies[latencies.count / 2]
        let worst = latencies.last ?? 0
        let seekOK = worst < 0.2
        print("\(seekOK ? "PASS" : "FAIL") seek latency at 200 random positions: median \(Measurement.format(median)), "
            + "p90 \(Measurement.format(latencies[latencies.count * 9 / 10])), max \(Measurement.format(worst)) < 200 ms")
        return [rateOK, sameOK, seekOK]
    }
}
