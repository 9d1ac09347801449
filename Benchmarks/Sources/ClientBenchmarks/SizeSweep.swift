import BenchmarkSupport
import CachingClient
import HTTPCaching

/// The 304 round trip against a plain GET of the same resource at several body sizes
/// (`/large/{KB}`, revalidated on every request with `reloadRevalidatingCacheData`): a 304
/// saves the body, so the larger the resource, the more the revalidation gains on the plain
/// GET. The verdict stays on the small `/no-cache` resource of ``runTargets(_:)``; this shows
/// where the crossover lies.
func printSizeSweep(_ setup: BenchmarkSetup) async throws {
    let client = setup.client
    for kilobytes in [1, 16, 64] {
        let path = "/large/\(kilobytes)"
        let request = CachingClient.request(url: setup.origin.baseURL + path)!
        _ = try await client.data(for: request)
        let revalidated = try await client.data(for: request, policy: .reloadRevalidatingCacheData)
        precondition(revalidated.outcome == .revalidated, "expected a revalidation, got \(revalidated.outcome)")
        var ratios: [Double] = [], gets: [Double] = [], trips: [Double] = []
        for _ in 0..<15 {
            let get = try await Task.detached {
                try await measureAsync("plain GET", samples: 5, iterations: 10) { try await setup.plainGet(path) }
            }.value
            let roundTrip = try await Task.detached {
                try await measureAsync("304", samples: 5, iterations: 10) {
                    _ = try await client.data(for: request, policy: .reloadRevalidatingCacheData)
                }
            }.value
            ratios.append(roundTrip.median / get.median)
            gets.append(get.median)
            trips.append(roundTrip.median)
        }
        ratios.sort()
        gets.sort()
        trips.sort()
        print(String(
            format: "  %2d KB body: 304 round trip %.1f µs, plain GET %.1f µs: ratio %.3f (median of 15 rounds)", kilobytes,
            trips[7] * 1e6, gets[7] * 1e6, ratios[7]))
    }
}
