import Foundation

// Dashboard benchmarks (run in release): swift run -c release DashboardBenchmarks
// Targets: fold ≥ 500,000 events/s; a 200×60 frame ≤ 2 ms; filtering 10,000 rows ≤ 5 ms per
// frame, also the first frame after a filter change, and a frame with a filter and the
// sparklines ≤ 2 ms (issue #15); memory flat over 5,000,000 events;
// first frame ≤ 300 ms after start, and idle CPU ≤ 0.5 % of a core over 60 s for the app
// (demo --publish) and for attach on it (both need CACHESCOPE_BINARY).
// Pass names (fold, fleet-fold, layout, filter, memory, first-frame, idle) to run only those.
let selected = Set(CommandLine.arguments.dropFirst())
func wanted(_ name: String) -> Bool { selected.isEmpty || selected.contains(name) }
print("Dashboard benchmarks")
var results: [Bool] = []
if wanted("fold") { results.append(FoldBenchmarks.throughput()) }
if wanted("fleet-fold") { results.append(FleetFoldBenchmarks.throughput()) }
if wanted("layout") {
    do {
        results.append(try LayoutBenchmarks.frames())
    } catch {
        print("FAIL layout: \(error)")
        results.append(false)
    }
}
if wanted("filter") {
    do {
        results.append(try FilterBenchmarks.frames())
    } catch {
        print("FAIL filter: \(error)")
        results.append(false)
    }
}
if wanted("memory") { results.append(FoldBenchmarks.boundedMemory()) }
if wanted("first-frame"), let firstFrame = LaunchBenchmarks.firstFrame() { results.append(firstFrame) }
if wanted("idle"), let idle = LaunchBenchmarks.idleCPU() { results.append(idle) }
print(results.allSatisfy { $0 } ? "all targets met" : "some targets missed")
exit(results.allSatisfy { $0 } ? 0 : 1)
