import BenchmarkSupport
import CachingClient

/// The targets, each against a peer measured in the same run; returns whether all
/// passed.
func runTargets(_ setup: BenchmarkSetup) async throws -> Bool {
    var verdicts: [Bool] = []
    let client = setup.client

    // 1. Fresh hits, measured inside a detached task as an app's code runs (from the main
    // actor every request would add two executor hops to what is measured).
    let hitRequest = setup.hitRequest
    let freshHit = try await Task.detached {
        try await measureAsync("fresh hit through the client (events on)", samples: 200, iterations: 200) {
            _ = try await client.data(for: hitRequest)
        }
    }.value
    print(freshHit.summary)
    verdicts.append(check(freshHit, atMost: 2e-6))  // issue #14 (5 µs before it)

    // 2. 304 round trips versus a plain AsyncHTTPClient GET of the same resource (on the same
    // HTTPClient), in 30 interleaved rounds (machine noise hits both alike); the verdict is the
    // median of the rounds' ratios. For reference, the client's transport alone sending the
    // same conditional GET (issue #14: within 15%): what the caching layer adds is the difference.
    let transport = AsyncHTTPClientTransport(client: setup.shared)
    let conditionalRequest = try await setup.conditionalRequest()
    let revalidateRequest = setup.revalidateRequest
    try await setup.plainGet()
    _ = try await transport.send(conditionalRequest, body: nil, timeout: .seconds(5))
    var gets: [Double] = [], roundTrips: [Double] = [], transportOnly: [Double] = [], ratios: [Double] = [], layerRatios: [Double] = []
    for _ in 0..<30 {
        let get = try await Task.detached {
            try await measureAsync("plain GET", samples: 10, iterations: 10) { try await setup.plainGet() }
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
        layerRatios.append(roundTrip.median / bare.median)
    }
    let roundTrip = Measurement(name: "304 round trip through the client", secondsPerOperation: roundTrips)
    let get = Measurement(name: "plain AsyncHTTPClient GET", secondsPerOperation: gets)
    let bare = Measurement(name: "the client's transport alone, same conditional GET", secondsPerOperation: transportOnly)
    print(roundTrip.summary)
    print(get.summary)
    print(bare.summary)
    verdicts.append(checkMedianRatio(ratios, atMost: 1.10, of: "304 round trip within 10% of a plain GET"))
    // Issue #14: what the caching layer adds to its own transport sending the same request.
    verdicts.append(checkMedianRatio(layerRatios, atMost: 1.15, of: "304 round trip within 15% of the client's transport alone"))
    print("the same comparison with larger bodies (information, not a verdict):")
    try await printSizeSweep(setup)

    // 3. The same requests through URLSession.
    try await compareWithURLSession(setup, freshHit: freshHit, roundTrip: roundTrip)
    return verdicts.allSatisfy { $0 }
}

/// Prints the verdict on the median of per-round ratios and returns whether it is within `limit`.
private func checkMedianRatio(_ ratios: [Double], atMost limit: Double, of name: String) -> Bool {
    let sorted = ratios.sorted()
    guard let first = sorted.first, let last = sorted.last else { return false }
    let median = sorted[sorted.count / 2]
    let passed = median <= limit
    print(String(
        format: "%@ %@: median of %d rounds' ratios %.3f (rounds ranged %.3f–%.3f)",
        passed ? "PASS" : "FAIL", name, sorted.count, median, first, last))
    return passed
}
