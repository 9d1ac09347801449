import AsyncHTTPClient
import BenchmarkSupport
import CacheEvents
import CacheStore
import CachingClient
import DemoOrigin
import Foundation
import HTTPCaching
import HTTPTypes
import NIOCore
import NIOHTTP1

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The caching client's targets, each compared with a peer measured in the same run:
// - a fresh hit through the whole client ≤ 5 µs median with events on (a dashboard subscribed);
// - a 304 round trip within 10% of a plain AsyncHTTPClient GET to the same loopback origin;
// - the same requests through FoundationNetworking URLSession with its default URLCache (ratio).

let origin = try await DemoOrigin.start()
var configuration = CachingClientConfiguration()
configuration.statsInterval = .seconds(3600)
let client = try await CachingClient(configuration: configuration)
let dashboard = await client.subscribe(.dashboard, snapshot: false)
let drain = Task { for await _ in dashboard {} }  // a live watcher: events are really delivered
var verdicts: [Bool] = []

// 1. Fresh hits.
let hitURL = origin.baseURL + "/max-age/3600"
_ = try await client.data(from: hitURL)
let hitRequest = CachingClient.request(url: hitURL)!
// Measured inside a detached task, as an app's code runs: calling from the main actor would
// add two executor hops per request to what is measured.
let freshHit = try await Task.detached {
    try await measureAsync("fresh hit through the client (events on)", samples: 200, iterations: 200) {
        _ = try await client.data(for: hitRequest)
    }
}.value
print(freshHit.summary)
verdicts.append(check(freshHit, atMost: 5e-6))

// 2. 304 round trips versus a plain AsyncHTTPClient GET of the same resource.
let revalidateRequest = CachingClient.request(url: origin.baseURL + "/no-cache")!
_ = try await client.data(for: revalidateRequest)
let plain = HTTPClient(eventLoopGroupProvider: .singleton)
let plainGet = origin.baseURL + "/no-cache"
func plainRequest() async throws {
    let response = try await plain.execute(HTTPClientRequest(url: plainGet), timeout: .seconds(5))
    _ = try await response.body.collect(upTo: 1 << 20)
}
try await plainRequest()
var roundTrips: [BenchmarkSupport.Measurement] = []
var gets: [BenchmarkSupport.Measurement] = []
for _ in 0..<5 {  // interleaved rounds, so machine noise hits both alike
    gets.append(try await Task.detached {
        try await measureAsync("plain AsyncHTTPClient GET", samples: 40, iterations: 10) { try await plainRequest() }
    }.value)
    roundTrips.append(try await Task.detached {
        try await measureAsync("304 round trip through the client", samples: 40, iterations: 10) {
            _ = try await client.data(for: revalidateRequest)
        }
    }.value)
}
let roundTrip = BenchmarkSupport.Measurement(name: "304 round trip through the client", secondsPerOperation: roundTrips.flatMap { $0.secondsPerOperation })
let get = BenchmarkSupport.Measurement(name: "plain AsyncHTTPClient GET", secondsPerOperation: gets.flatMap { $0.secondsPerOperation })
print(roundTrip.summary)
print(get.summary)
let overhead = ratio(roundTrip, get)
let withinTenPercent = overhead <= 1.10
print("\(withinTenPercent ? "PASS" : "FAIL") 304 round trip within 10% of a plain GET (ratio \(String(format: "%.3f", overhead)))")
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

drain.cancel()
try await plain.shutdown()
try await client.shutdown()
try await origin.stop()
print(verdicts.allSatisfy { $0 } ? "ALL PASS" : "SOME FAIL")
