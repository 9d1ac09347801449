import Foundation


// Issue #17's shared-tier targets, against a real PostgreSQL on loopback (the one
// CACHESCOPE_TEST_POSTGRES_URL names, or a throw-away one this run starts), release build:
// - a shared-tier hit of a 10 KiB body through the whole client ≤ 0.5 ms p50, beside a
//   loopback origin round trip of the same body (plain AsyncHTTPClient GET), interleaved;
// - 8 concurrent clients on two instances (4 tasks each) keep that p50 within 2×;
// - a store adds no latency to the response that caused it: a miss whose response is stored
//   (memory tier, and the shared tier in the background) against a miss the client is told
//   not to store, both looking in the shared tier first, alternating; after each pair the
//   write is waited for (median of the rounds' p50 ratios ≤ 1.10).
// Rounds alternate the order of the hit phases; no response is being written to the tier while
// hits are timed (the readers' marks of use, one UPDATE a second, still run).
//
//   swift run -c release --package-path Benchmarks SharedTierBenchmarks [ROUNDS]
//   … SharedTierBenchmarks --concurrent [URLS [TASKS]]   only concurrent hits, for perf record
//   … SharedTierBenchmarks --misses                      what a miss costs with the tier
//   … SharedTierBenchmarks --purges [COUNT]              a purge reaching the other instance ≤ 1 s p99

if let index = CommandLine.arguments.firstIndex(of: "--concurrent") {
    let numbers = CommandLine.arguments.dropFirst(index + 1).compactMap { Int($0) }
    let (count, tasks) = (numbers.first ?? 8000, numbers.dropFirst().first ?? SharedTierRun.tasks)
    try await Task.detached { try await ConcurrentProfile.run(urls: count, tasks: tasks) }.value
    exit(0)
}
if let index = CommandLine.arguments.firstIndex(of: "--purges") {
    let count = CommandLine.arguments.dropFirst(index + 1).first.flatMap { Int($0) } ?? 200
    guard count > 0 else {
        print("SharedTierBenchmarks: --purges COUNT must be a positive number of rounds")
        exit(64)
    }
    let passed = try await Task.detached { try await PurgePropagation.run(count: count) }.value
    exit(passed ? 0 : 1)
}
if CommandLine.arguments.contains("--misses") {
    try await Task.detached { try await MissBreakdown.run() }.value
    exit(0)
}
let rounds = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 20
// Off the main actor (top-level code runs on it: every await would hop back to it).
let passed = try await Task.detached { try await SharedTierRun.measure(rounds: rounds) }.value
print(passed ? "ALL PASS" : "SOME FAIL")
