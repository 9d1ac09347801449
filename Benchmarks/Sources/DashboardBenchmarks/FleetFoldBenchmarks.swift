import BenchmarkSupport
import CacheEvents
import Dashboard
import Foundation

/// What a fleet costs the fold (issue #17): the same 1,000,000 events folded as one instance's
/// and as three instances' (each request's events, and each entry event, tagged with an
/// instance chosen by its request ID or its seq), alternating, five rounds each. A fleet keys
/// requests, entries, marks and figures by instance as well, so every look-up hashes one more
/// field; the ratio says what that costs. No target of its own: the fold's ≥ 500,000 events/s
/// holds for a fleet too.
enum FleetFoldBenchmarks {
    static func throughput() -> Bool {
        var traffic = SyntheticTraffic()
        let single = traffic.events(1_000_000)
        let fleet = single.map { event in
            var tagged = event
            tagged.instance = UInt16((event.requestID ?? event.seq) % 3)
            return tagged
        }
        var singleRates: [Double] = [], fleetRates: [Double] = []
        var checksum = 0
        func fold(_ events: [CacheEvent]) -> Double {
            let start = ContinuousClock.now
            var state = DashboardState()
            for event in events { state.apply(event) }
            checksum &+= state.traffic.counters.requests
            return Double(events.count) / (ContinuousClock.now - start).seconds
        }
        _ = fold(single)
        _ = fold(fleet)
        for round in 0..<5 {
            if round % 2 == 0 {
                singleRates.append(fold(single))
                fleetRates.append(fold(fleet))
            } else {
                fleetRates.append(fold(fleet))
                singleRates.append(fold(single))
            }
        }
        let (one, three) = (median(singleRates), median(fleetRates))
        print(String(format: "  one instance %.0f events/s, three instances %.0f events/s (medians of 5): a fleet folds at %.2f× (checksum %d)",
                     one, three, three / one, checksum))
        let pass = three >= 500_000
        print("\(pass ? "PASS" : "FAIL") fleet fold throughput: \(Int(three)) events/s ≥ 500,000")
        return pass
    }
}
