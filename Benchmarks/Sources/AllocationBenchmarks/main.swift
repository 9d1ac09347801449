import BenchmarkSupport
import Foundation

// Allocations per operation on the hot paths, each held to a budget (Figure.swift):
//   swift run -c release --package-path Benchmarks AllocationBenchmarks
// or, as CI runs it, a debug build that reuses the tests' build, against the debug budgets:
//   swift run --package-path Benchmarks --scratch-path .build AllocationBenchmarks
// Prints `PASS/FAIL name: N allocations per op ≤ budget` per path, and whether the memory
// tier's accounted bytes match the memory it takes (StoreFootprint, in a child process run with
// `--footprint`, without the interposer), and exits 1 when any fails.
// Counts are the median of 11 batches after two warm-up batches, of every thread in this
// process; the demo origin runs in a child process (`--origin`) so its work is not counted.
// On Linux the counter (malloc-interposer) must be preloaded: the program re-runs itself with
// LD_PRELOAD set when it is not.

if CommandLine.arguments.contains("--origin") {
    try await OriginProcess.serve()
    exit(0)
}

if CommandLine.arguments.contains("--footprint") {
    exit(try await StoreFootprint().measure().check() ? 0 : 1)
}

if !AllocationCounter.start() {
    let library = AllocationCounter.libraryPath
    guard ProcessInfo.processInfo.environment["LD_PRELOAD"] != library else {
        print("FAIL the malloc interposer counts nothing even with LD_PRELOAD=\(library)")
        exit(2)
    }
    setenv("LD_PRELOAD", library, 1)
    let arguments = CommandLine.arguments.map { strdup($0) } + [nil]
    execv("/proc/self/exe", arguments)
    print("FAIL could not re-run with LD_PRELOAD=\(library): \(String(cString: strerror(errno)))")
    exit(2)
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("allocation-benchmarks-\(getpid())").path
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: directory) }

let origin = try OriginProcess()
let paths = try await ClientPaths.start(origin: origin.baseURL)
let sample = try await paths.sampleEvents()
var counts = try await paths.measure()
try await paths.stop()
origin.stop()
counts += try EventPaths(sample: sample).measure(directory: directory)
AllocationCounter.stop()

print("info \(sample.count) sample events from the client, repeated as new requests; \(BuildConfiguration.current) build, its budgets")
var passed = true
for (figure, count) in zip(Figure.allCases, counts) {
    passed = check(count, budget: figure.budget) && passed
}
let overhead = counts[Figure.allCases.firstIndex(of: .revalidation)!].median
    - counts[Figure.allCases.firstIndex(of: .transportRevalidation)!].median
let overheadOK = overhead <= Figure.revalidationOverheadBudget
print("\(overheadOK ? "PASS" : "FAIL") allocations per 304 beyond those of the transport alone: \(overhead) allocations per op ≤ \(Figure.revalidationOverheadBudget)"
    + " (issue #14's target in a release build: ≤ \(Figure.revalidationOverheadTarget))")
passed = overheadOK && passed
passed = try StoreFootprint.checkInChildProcess() && passed
print(passed ? "ALL PASS" : "SOME FAIL")
exit(passed ? 0 : 1)
