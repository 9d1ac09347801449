// StoreBenchmarks: checks ResponseStore's performance targets (run in release mode:
// `swift run -c release StoreBenchmarks`, add `--quick` for smaller sizes) and prints a
// PASS/FAIL line per target with the figures, plus the measurements behind the design
// choices (Mutex versus actor, SQLite versus journal).
// `--only memory-hit,disk-hit,freshen,store,reopen,eviction,index` runs the named sections only.
import BenchmarkSupport
import Foundation

let quick = CommandLine.arguments.contains("--quick")
let large = quick ? 10_000 : 100_000
let only = CommandLine.arguments.firstIndex(of: "--only").flatMap { position in
    CommandLine.arguments.indices.contains(position + 1) ? Set(CommandLine.arguments[position + 1].split(separator: ",").map(String.init)) : nil
}
func runs(_ section: String) -> Bool { only?.contains(section) ?? true }
print("ResponseStore benchmarks — \(ProcessInfo.processInfo.activeProcessorCount) cores\(quick ? ", quick mode" : "")")

var results: [Bool] = []
if runs("memory-hit") { results.append(await MemoryHitBenchmark.run()) }
if runs("disk-hit") { results.append(await DiskHitBenchmark.run()) }
if runs("freshen") { results.append(await FreshenBenchmark.run()) }
if runs("store") { results.append(await StoreLatencyBenchmark.run()) }
if runs("reopen") || runs("eviction") {
    let largeStore = Workload.directory("large")
    await ReopenBenchmark.create(largeStore, entries: large)
    if runs("reopen") { results.append(await ReopenBenchmark.run(largeStore, entries: large)) }
    if runs("eviction") { results.append(await EvictionBenchmark.run(large: large, largeStore: largeStore)) }
    Workload.remove(largeStore)
}
if runs("index") { IndexChoiceBenchmark.run(rows: large) }

let failed = results.filter { !$0 }.count
print("\n\(failed == 0 ? "ALL PASS" : "\(failed) FAIL") (\(results.count) targets)")
exit(failed == 0 ? 0 : 1)
