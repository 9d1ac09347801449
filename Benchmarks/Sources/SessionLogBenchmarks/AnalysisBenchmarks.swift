import BenchmarkSupport
import CacheEvents
import CacheScopeApp
import Foundation
import SessionLog
import TrafficFilter

/// Issue #15's targets for the headless analysis of a recorded log, each through the code path
/// of its command:
/// - `cachescope replay LOG --summary --filter EXPR` ≥ 500,000 events/s: load the log
///   (`ReplaySource`), keep the matching requests (`RequestSelection`), fold and print the
///   summary (`SessionSummary`);
/// - `cachescope replay LOG --what-if memory=…` ≤ 10 s for 1,000,000 events (`WhatIfReplay`:
///   load, the recorded answers through a real `CachingClient` in simulated time, the report).
enum AnalysisBenchmarks {
    /// Filters for the summary: an outcome, a URL regex, a header.
    static let summaryFilters = ["outcome:miss", #"url~"item.[0-9]+9""#, "h:authorization"]

    static func filteredSummary(path: String, events: Int, runs: Int) async throws -> [Bool] {
        var results: [Bool] = []
        for text in summaryFilters {
            let filter = try Filter(text)
            var totals: [Double] = []
            var stages: [(load: Double, select: Double, summary: Double)] = []
            var kept = 0
            var printed = 0
            for _ in 0..<runs {
                let clock = ContinuousClock()
                let start = clock.now
                let loaded = try await ReplaySource.load(path, mode: .private)
                let afterLoad = clock.now
                let selected = RequestSelection.select(loaded.events, filter: filter)
                let afterSelect = clock.now
                let summary = SessionSummary(folding: selected).text
                let end = clock.now
                // As in `replay --summary`, the loaded log is freed after the summary is out.
                withExtendedLifetime(loaded) {}
                kept = selected.count
                printed = summary.utf8.count
                totals.append((end - start).seconds)
                stages.append(((afterLoad - start).seconds, (afterSelect - afterLoad).seconds, (end - afterSelect).seconds))
            }
            let median = totals.sorted()[totals.count / 2]
            let middle = stages.sorted { $0.load + $0.select + $0.summary < $1.load + $1.select + $1.summary }[stages.count / 2]
            let rate = Double(events) / median
            let pass = rate >= 500_000
            print("\(pass ? "PASS" : "FAIL") filtered replay summary (\(text)): \(String(format: "%.0f", rate)) events/s ≥ 500000 "
                + "(median of \(runs): \(String(format: "%.2f", median)) s = load \(String(format: "%.2f", middle.load)) s + filter "
                + "\(String(format: "%.2f", middle.select)) s + summary \(String(format: "%.2f", middle.summary)) s; "
                + "\(kept) events kept, \(printed) bytes of summary; range \(String(format: "%.2f–%.2f", totals.min() ?? 0, totals.max() ?? 0)) s)")
            results.append(pass)
        }
        return results
    }

    static func whatIf(path: String, events: Int, runs: Int) async throws -> [Bool] {
        let input = try InputPath(path, kind: .sessionLogOrHAR, option: "FILE")
        let changes = try WhatIfChanges(parsing: ["memory=16M"])
        var seconds: [Double] = []
        var report: WhatIfReport?
        for _ in 0..<runs {
            let clock = ContinuousClock()
            let start = clock.now
            let made = try await WhatIfReplay.run(input, changes: changes)
            _ = made.text
            seconds.append((clock.now - start).seconds)
            report = made
        }
        let median = seconds.sorted()[seconds.count / 2]
        let limit = 10.0 * Double(events) / 1_000_000
        let pass = median <= limit
        let compared = report.map { "\($0.comparedRequests) requests, \($0.changedRequests) changed" } ?? ""
        print("\(pass ? "PASS" : "FAIL") what-if (memory=16M) of \(events) events: median \(String(format: "%.2f", median)) s ≤ "
            + "\(String(format: "%.1f", limit)) s (\(runs) runs, range \(String(format: "%.2f–%.2f", seconds.min() ?? 0, seconds.max() ?? 0)) s; \(compared))")
        return [pass]
    }
}
