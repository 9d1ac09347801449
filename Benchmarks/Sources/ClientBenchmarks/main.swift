import AsyncHTTPClient
import BenchmarkSupport
import CacheEvents
import CachingClient
import DemoOrigin
import Foundation
import HTTPCaching
import HTTPTypes
import NIOCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The caching client's targets, each compared with a peer measured in the same run:
// - a fresh hit through the whole client ≤ 5 µs median with events on (a dashboard subscribed);
// - a 304 round trip within 10% of a plain AsyncHTTPClient GET to the same loopback origin;
// - the same requests through FoundationNetworking URLSession with its default URLCache (ratio).
// Other modes: `--breakdown` (the cost of each step), `--profile hit|revalidate COUNT`.

let arguments = CommandLine.arguments
let origin = try await DemoOrigin.start()
// One HTTPClient (the transport's recommended configuration) serves both the caching client
// and its peer, the plain GET: the two then share one connection pool and the same event
// loops, so the comparison measures the caching layer and not where NIO placed each
// connection (which moved single runs' ratios by ±20%).
let shared = HTTPClient(eventLoopGroupProvider: .singleton, configuration: AsyncHTTPClientTransport.recommendedConfiguration)
var configuration = CachingClientConfiguration()
configuration.statsInterval = .seconds(3600)
configuration.transport = AsyncHTTPClientTransport(client: shared)
let client = try await CachingClient(configuration: configuration)
// A live watcher subscribed as the dashboard is (bursts every 20 ms), so events are really
// published and delivered while the client is measured.
let dashboard = await client.subscribeInBatches(.dashboard, snapshot: false)
let drain = Task.detached {
    var delivered = 0
    for await batch in dashboard { delivered += batch.count }
    return delivered
}
let hitURL = origin.baseURL + "/max-age/3600"
_ = try await client.data(from: hitURL)
let hitRequest = CachingClient.request(url: hitURL)!
let revalidateRequest = CachingClient.request(url: origin.baseURL + "/no-cache")!
_ = try await client.data(for: revalidateRequest)

if arguments.contains("--breakdown") {
    try await printStepBreakdown(client: client, origin: origin, hitRequest: hitRequest)
} else if let index = arguments.firstIndex(of: "--profile"), index + 1 < arguments.count {
    let count = index + 2 < arguments.count ? Int(arguments[index + 2]) ?? 100_000 : 100_000
    let request = arguments[index + 1] == "hit" ? hitRequest : revalidateRequest
    let elapsed = try await runProfileLoop(client: client, request: request, count: count)
    print("\(arguments[index + 1]): \(count) requests in \(elapsed)")
} else {
    var verdicts: [Bool] = []

    // 1. Fresh hits, measured inside a detached task as an app's code runs (from the main actor
    // every request would add two executor hops to what is measured).
    let freshHit = try await Task.detached {
        try await measureAsync("fresh hit through the client (events on)", samples: 200, iterations: 200) {
            _ = try await client.data(for: hitRequest)
        }
    }.value
    print(freshHit.summary)
    verdicts.append(check(freshHit, atMost: 5e-6))

    // 2. 304 round trips versus a plain AsyncHTTPClient GET of the same resource (on the same
    // HTTPClient), in 30 interleaved rounds (machine noise hits both alike); the verdict is the
    // median of the rounds' ratios. For reference, the client's transport alone sending the
    // same conditional GET: what the caching layer adds is the difference.
    let plainGet = origin.baseURL + "/no-cache"
    func plainRequest() async throws {
        let response = try await shared.execute(HTTPClientRequest(url: plainGet), timeout: .seconds(5))
        _ = try await response.body.collect(upTo: 1 << 20)
    }
    let transport = AsyncHTTPClientTransport(client: shared)
    var conditionalFields = HTTPFields()
    conditionalFields[.ifNoneMatch] = try await client.data(for: revalidateRequest).response.headerFields[.eTag]
    let conditionalRequest = HTTPRequest(
        method: .get, scheme: "http", authority: revalidateRequest.authority, path: "/no-cache", headerFields: conditionalFields)
    try await plainRequest()
    _ = try await transport.send(conditionalRequest, body: nil, timeout: .seconds(5))
    var gets: [Double] = [], roundTrips: [Double] = [], transportOnly: [Double] = [], ratios: [Double] = []
    for _ in 0..<30 {
        let get = try await Task.detached {
            try await measureAsync("plain GET", samples: 10, iterations: 10) { try await plainRequest() }
        }.value
        let roundTrip = try await Task.detached {
            try await measureAsync("304", samples: 10, iterations: 10) { _ = try await client.data(for: revalidateRequest) }
        }.value
        let bare = try await Task.detached {
            try await measureAsync("transport", samples: 10, iterations: 10) {
                _ = try await transport.send(conditionalRequest, body: nil, timeout: .seconds(5))
            }
        }.value
        gets += get.secondsPerOperation
        roundTrips += roundTrip.secondsPerOperation
        transportOnly += bare.secondsPerOperation
        ratios.append(roundTrip.median / get.median)
    }
    let roundTrip = BenchmarkSupport.Measurement(name: "304 round trip through the client", secondsPerOperation: roundTrips)
    let get = BenchmarkSupport.Measurement(name: "plain AsyncHTTPClient GET", secondsPerOperation: gets)
    let bare = BenchmarkSupport.Measurement(name: "the client's transport alone, same conditional GET", secondsPerOperation: transportOnly)
    print(roundTrip.summary)
    print(get.summary)
    print(bare.summary)
    let sortedRatios = ratios.sorted()
    let overhead = sortedRatios[sortedRatios.count / 2]
    let withinTenPercent = overhead <= 1.10
    print(String(
        format: "%@ 304 round trip within 10%% of a plain GET: median of 30 rounds' ratios %.3f (rounds ranged %.3f–%.3f; client / bare transport %.3f)",
        withinTenPercent ? "PASS" : "FAIL", overhead, sortedRatios.first!, sortedRatios.last!, roundTrip.median / bare.median))
    verdicts.append(withinTenPercent)

    // 3. The same fresh-hit workload through URLSession with its default URLCache.
    let session = URLSession(configuration: .default)
    let sessionURL = URL(string: hitURL)!
    func sessionGet() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            session.dataTask(with: sessionURL) { _, _, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }.resume()
        }
    }
    try await sessionGet()
    origin.resetCounts()
    let sessionHit = try await measureAsync("same GET through URLSession + default URLCache", samples: 40, iterations: 10) {
        try await sessionGet()
    }
    print(sessionHit.summary)
    print("URLSession sent \(origin.requestCount(path: "/max-age/3600")) of \(43 * 10) requests to the origin (a real cache sends none)")
    _ = ratio(sessionHit, freshHit)
    print(verdicts.allSatisfy { $0 } ? "ALL PASS" : "SOME FAIL")
}

drain.cancel()
try await client.shutdown()
try await shared.shutdown()
try await origin.stop()
