import BenchmarkSupport
import CacheEvents
import Dashboard
import Foundation

/// How fast events fold into the dashboard's state, and that its memory stays flat.
enum FoldBenchmarks {
    /// Folds 1,000,000 pre-generated events into a fresh state, three times; target ≥ 500,000/s.
    static func throughput() -> Bool {
        var traffic = SyntheticTraffic()
        let events = traffic.events(1_000_000)
        var checksum = 0
        let measurement = measure("fold 1,000,000 events into DashboardState", samples: 3, warmup: 1) {
            var state = DashboardState()
            for event in events { state.apply(event) }
            checksum &+= state.traffic.counters.requests
        }
        let perSecond = Double(events.count) / measurement.median
        print(String(format: "  %.0f events/s (median of 3; p90 %@ per run; checksum %d)", perSecond,
                     BenchmarkSupport.Measurement.format(measurement.percentile(0.9)), checksum))
        let pass = perSecond >= 500_000
        print("\(pass ? "PASS" : "FAIL") fold throughput: \(Int(perSecond)) events/s ≥ 500,000")
        return pass
    }

    /// Feeds 5,000,000 events in ten chunks and prints the resident memory after each: it must
    /// stop growing once the request ring is full (the last five chunks within 8 MiB).
    static func boundedMemory() -> Bool {
        var traffic = SyntheticTraffic(seed: 7)
        var state = DashboardState()
        var samples: [Int] = []
        for chunk in 1...10 {
            traffic.generate(events: 500_000) { state.apply($0) }
            let rss = residentMemoryBytes()
            samples.append(rss)
            let millions = String(format: "%.1f", Double(chunk) / 2)
            print("  after \(millions)M events: RSS \(formatBytes(rss)), \(state.traffic.requests.count) requests kept, "
                + "\(state.traffic.requests.openCount) open, \(state.traffic.entries.count) entries")
        }
        let tail = samples.suffix(5)
        let growth = (tail.max() ?? 0) - (tail.min() ?? 0)
        let bounded = growth <= 8 << 20 && state.traffic.requests.count <= RequestLog.defaultCapacity
            && state.traffic.entries.count <= 2_100
        print("\(bounded ? "PASS" : "FAIL") memory stays flat: last 5 of 10 samples within \(formatBytes(growth)) (≤ 8 MiB)")
        return bounded
    }
}

/// Bytes in MiB with one decimal.
func formatBytes(_ bytes: Int) -> String {
    String(format: "%.1f MiB", Double(bytes) / 1_048_576)
}
