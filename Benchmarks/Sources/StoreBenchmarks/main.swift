// StoreBenchmarks: checks ResponseStore's performance targets (run in release mode:
// `swift run -c release StoreBenchmarks`, add `--quick` for smaller sizes) and prints a
// PASS/FAIL line per target with the figures, plus the measurements behind the design
// choices (Mutex versus actor, SQLite versus journal).
import BenchmarkSupport
import Foundation

let quick = CommandLine.arguments.contains("--quick")
let large = quick ? 10_000 : 100_000
print("ResponseStore benchmarks — \(ProcessInfo.processInfo.activeProcessorCount) cores\(quick ? ", quick mode" : "")")

var results: [Bool] = []
results.append(await MemoryHitBenchmark.run())
results.append(await DiskHitBenchmark.run())
results.append(await StoreLatencyBenchmark.run())
let largeStore = Workload.directory("large")
await ReopenBenchmark.create(largeStore, entries: large)
results.append(await ReopenBenchmark.run(largeStore, entries: large))
results.append(await EvictionBenchmark.run(large: large, largeStore: largeStore))
Workload.remove(largeStore)
IndexChoiceBenchmark.run(rows: large)

let failed = results.filter { !$0 }.count
print("\n\(failed == 0 ? "ALL PASS" : "\(failed) FAIL") (\(results.count) targets)")
exit(failed == 0 ? 0 : 1)
