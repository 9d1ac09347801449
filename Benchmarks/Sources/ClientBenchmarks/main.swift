import AsyncHTTPClient
import CacheMetrics
import CacheScopeApp
import CachingClient
import HTTPTypes

// The caching client's targets, each compared with a peer measured in the same run:
// - a fresh hit through the whole client ≤ 2 µs median with events on (a dashboard subscribed);
// - a 304 round trip within 10% of a plain AsyncHTTPClient GET to the same loopback origin, and
//   within 15% of the client's transport alone sending the same conditional GET (issue #14);
// - the same requests through FoundationNetworking URLSession, with its default URLCache and
//   through CachingURLProtocol (ratios, and how many requests reached the origin).
// Other modes, for finding where time goes:
//   --breakdown                        the cost of each step, and of a 304 without the network
//   --cpu [NAME]                       wall and process CPU time per request, each way of sending
//   --sizes                            the 304 / plain GET comparison at 1, 16 and 64 KB bodies
//   --profile hit|revalidate|instant N N requests of one kind in a loop, for `perf record`
//   --metrics                          a fresh hit with metrics on against off (issue #17: ≤ 5 %)
//   --metrics-profile off|on|prometheus 300,000 fresh hits, for `perf record`

let arguments = CommandLine.arguments
let setup = try await BenchmarkSetup.start()

if arguments.contains("--breakdown") {
    try await printStepBreakdown(client: setup.client, origin: setup.origin, hitRequest: setup.hitRequest)
} else if let index = arguments.firstIndex(of: "--profile"), index + 1 < arguments.count {
    let count = index + 2 < arguments.count ? Int(arguments[index + 2]) ?? 100_000 : 100_000
    let elapsed: Duration
    switch arguments[index + 1] {
    case "hit": elapsed = try await runProfileLoop(client: setup.client, request: setup.hitRequest, count: count)
    case "instant":
        let (instant, request) = try await makeInstantRevalidationClient(origin: setup.origin)
        elapsed = try await runProfileLoop(client: instant, request: request, count: count)
        try await instant.shutdown()
    default: elapsed = try await runProfileLoop(client: setup.client, request: setup.revalidateRequest, count: count)
    }
    print("\(arguments[index + 1]): \(count) requests in \(elapsed)")
} else if let index = arguments.firstIndex(of: "--metrics-profile"), index + 1 < arguments.count {
    // 300,000 fresh hits with metrics off, on (no-op backend) or on with Prometheus, for `perf record`.
    let metrics: CacheMetrics? =
        switch arguments[index + 1] {
        case "on": CacheMetrics(events: setup.client.events)
        case "prometheus":
            CacheMetrics(events: setup.client.events, factory: CacheMetricsExposition())
        default: nil
        }
    let elapsed = try await runProfileLoop(client: setup.client, request: setup.hitRequest, count: 300_000)
    await metrics?.stop()
    print("metrics \(arguments[index + 1]): 300000 hits in \(elapsed)")
} else if arguments.contains("--metrics") {
    print(try await runMetricsOverhead(setup) ? "ALL PASS" : "SOME FAIL")
} else if arguments.contains("--sizes") {
    try await printSizeSweep(setup)
} else if let index = arguments.firstIndex(of: "--cpu") {
    let only = index + 1 < arguments.count ? arguments[index + 1] : nil
    try await printCPUPerRequest(setup, only: only)
} else {
    print(try await runTargets(setup) ? "ALL PASS" : "SOME FAIL")
}

try await setup.stop()
