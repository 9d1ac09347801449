import BenchmarkSupport
import CachingClient
import Foundation
import HTTPCaching

/// One run of the shared-tier benchmark (see main.swift): the fleet, the URLs each phase asks
/// for, and the latencies gathered.
struct SharedTierRun {
    static let perRound = 40  // single-client shared hits (and origin round trips, and misses of each kind) a round
    static let tasks = 8      // concurrent clients, alternating between the two reader instances
    static let perTask = 20   // requests each makes a round

    let fleet: Fleet
    let singleURLs: [String]
    let concurrentURLs: [String]
    /// Entries the tier should hold by now.
    var stored = 0
    /// Reader requests answered other than as a hit (each one a failure).
    var notShared = 0
    var hits: [Double] = [], roundTrips: [Double] = [], concurrent: [Double] = []
    var missesWithStore: [Double] = [], missesWithout: [Double] = [], storeRatios: [Double] = []

    /// Runs `rounds` rounds, prints the verdicts and says whether all passed.
    static func measure(rounds: Int) async throws -> Bool {
        let fleet = try await Fleet.start()
        var run = SharedTierRun(
            fleet: fleet,
            singleURLs: (0..<(rounds * perRound)).map { fleet.url("single", $0) },
            concurrentURLs: (0..<(rounds * tasks * perTask)).map { fleet.url("concurrent", $0) })
        let warmURLs = (0..<50).map { fleet.url("warm", $0) }
        let fillStart = ContinuousClock.now
        run.stored = warmURLs.count + run.singleURLs.count + run.concurrentURLs.count
        try await fleet.fill(warmURLs + run.singleURLs + run.concurrentURLs, expected: run.stored)
        print("filled the shared tier with \(run.stored) entries of 10 KiB in \(ContinuousClock.now - fillStart)")
        for url in warmURLs {
            _ = try await run.sharedHit(fleet.readers[0], url)
            try await fleet.originRoundTrip(url)
        }
        run.notShared = 0
        for round in 0..<rounds {
            if round % 2 == 0 {
                try await run.singlePhase(round)
                try await run.concurrentPhase(round)
            } else {
                try await run.concurrentPhase(round)
                try await run.singlePhase(round)
            }
            try await run.storePhase(round)
        }
        let verdicts = run.verdicts()
        for (pass, line) in verdicts { print("\(pass ? "PASS" : "FAIL") \(line)") }
        try await fleet.stop()
        return verdicts.allSatisfy(\.0)
    }

    private mutating func sharedHit(_ client: CachingClient, _ url: String) async throws -> Double {
        let start = ContinuousClock.now
        let outcome = try await client.data(from: url).outcome
        let seconds = (ContinuousClock.now - start).seconds
        if outcome != .hit { notShared += 1 }
        return seconds
    }

    private static func timed(_ operation: () async throws -> Void) async throws -> Double {
        let start = ContinuousClock.now
        try await operation()
        return (ContinuousClock.now - start).seconds
    }

    private mutating func singlePhase(_ round: Int) async throws {
        for index in (round * Self.perRound)..<((round + 1) * Self.perRound) {
            hits.append(try await sharedHit(fleet.readers[0], singleURLs[index]))
            let url = singleURLs[index]
            roundTrips.append(try await Self.timed { try await fleet.originRoundTrip(url) })
        }
    }

    private mutating func concurrentPhase(_ round: Int) async throws {
        let (fleet, concurrentURLs) = (fleet, concurrentURLs)
        let results = try await withThrowingTaskGroup(of: ([Double], Int).self) { group in
            for task in 0..<Self.tasks {
                let reader = fleet.readers[task % 2]
                let first = (round * Self.tasks + task) * Self.perTask
                let urls = Array(concurrentURLs[first..<(first + Self.perTask)])
                group.addTask {
                    var seconds: [Double] = [], missed = 0
                    for url in urls {
                        let start = ContinuousClock.now
                        if try await reader.data(from: url).outcome != .hit { missed += 1 }
                        seconds.append((ContinuousClock.now - start).seconds)
                    }
                    return (seconds, missed)
                }
            }
            var all: [([Double], Int)] = []
            for try await result in group { all.append(result) }
            return all
        }
        for (seconds, missed) in results {
            concurrent += seconds
            notShared += missed
        }
    }

    /// Misses through the writer, each once nothing is being written: one whose response is
    /// stored (in its memory tier and, in the background, the shared one) against one it is
    /// told not to store, alternating which goes first. Both look in the shared tier first.
    private mutating func storePhase(_ round: Int) async throws {
        var withStore: [Double] = [], without: [Double] = []
        let writer = fleet.writer
        for index in (round * Self.perRound)..<((round + 1) * Self.perRound) {
            let (stored, unstored) = (fleet.url("stored", index), fleet.url("unstored", index))
            let storedFirst = index % 2 == 0
            if storedFirst { withStore.append(try await Self.timed { _ = try await writer.data(from: stored) }) }
            without.append(try await Self.timed { _ = try await writer.data(from: unstored) })
            if !storedFirst { withStore.append(try await Self.timed { _ = try await writer.data(from: stored) }) }
            self.stored += 1
            try await fleet.fill([], expected: self.stored)  // its write done: the next request meets an idle database
        }
        missesWithStore += withStore
        missesWithout += without
        storeRatios.append(Self.median(withStore) / Self.median(without))
    }

    private static func median(_ values: [Double]) -> Double { BenchmarkSupport.median(values) }

    private static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        Measurement(name: "", secondsPerOperation: values).percentile(fraction)
    }

    private static func ms(_ seconds: Double) -> String { String(format: "%.3f ms", seconds * 1e3) }

    /// Each target's verdict and its line.
    private func verdicts() -> [(Bool, String)] {
        let hitP50 = Self.median(hits), concurrentP50 = Self.median(concurrent), storeRatio = Self.median(storeRatios)
        let (ms, percentile, median) = (Self.ms, Self.percentile, Self.median)
        return [
            (hitP50 <= 0.0005 && notShared == 0, String(
                format: "shared-tier hit of 10 KiB ≤ 0.5 ms p50: %@ p50, %@ p90 (%d requests; %d not answered as hits); "
                    + "origin round trip of the same body %@ p50, %@ p90 (hit / round trip %.2f)",
                ms(hitP50), ms(percentile(hits, 0.9)), hits.count, notShared, ms(median(roundTrips)),
                ms(percentile(roundTrips, 0.9)), hitP50 / median(roundTrips))),
            (concurrentP50 <= 2 * hitP50, String(
                format: "%d concurrent clients on two instances within 2× of one: %@ p50, %@ p90 (%d requests), "
                    + "%.2f× the single client's p50",
                Self.tasks, ms(concurrentP50), ms(percentile(concurrent, 0.9)), concurrent.count, concurrentP50 / hitP50)),
            (storeRatio <= 1.10, String(
                format: "a store adds no latency to the response that caused it: a miss stored %@ p50, one not stored %@ "
                    + "(median of %d rounds' p50 ratios %.3f, rounds %.3f–%.3f; ≤ 1.10)",
                ms(median(missesWithStore)), ms(median(missesWithout)), storeRatios.count, storeRatio,
                storeRatios.min() ?? 0, storeRatios.max() ?? 0)),
        ]
    }
}
