import CacheEvents
import CacheMetrics
import CacheStore
import CachingClient
import DemoOrigin
import HTTPCaching
import Testing

/// A real client against the demo origin, its metrics scraped from `/metrics` over a real
/// socket: the counts are the requests made.
@Suite("Metrics of a client, scraped", .timeLimit(.minutes(1)))
struct ClientMetricsTests {
    private static let outcomes = CacheOutcome.allCases.map(\.rawValue)

    /// The sum of a family's samples over every label set.
    private static func total(_ page: PrometheusText, _ name: String) -> Double {
        page.samples(named: name).reduce(0) { $0 + $1.value }
    }

    @Test("hits, misses, revalidations and their body bytes are counted as the client answered them")
    func requestsByOutcome() async throws {
        let harness = try await MetricsHarness.start()
        var fromCache = 0
        var fromOrigin = 0
        var answered: [CacheOutcome] = []
        func get(_ path: String) async throws {
            let result = try await harness.get(path)
            answered.append(result.outcome)
            if result.outcome.servedFromCache { fromCache += result.body.count } else { fromOrigin += result.body.count }
        }
        try await get("/max-age/60")
        try await get("/max-age/60")
        try await get("/max-age/60")
        try await get("/no-cache")
        try await get("/no-cache")
        try await get("/rotating/1")
        harness.advance(seconds: 2)  // /rotating/1 is stale, and its content has changed
        try await get("/rotating/1")
        #expect(answered == [.miss, .hit, .hit, .miss, .revalidated, .miss, .modified])

        let page = try await harness.scrape { Self.total($0, CacheMetricName.requests) == 7 }
        let requests = Dictionary(uniqueKeysWithValues: Self.outcomes.map { ($0, page.value(CacheMetricName.requests, ["outcome": $0])) })
        #expect(requests == ["hit": 2, "miss": 3, "revalidated": 1, "modified": 1, "stale": 0, "bypass": 0, "error": 0])
        #expect(page.value(CacheMetricName.revalidations, ["result": "not_modified"]) == 1)
        #expect(page.value(CacheMetricName.revalidations, ["result": "modified"]) == 1)
        #expect(page.value(CacheMetricName.revalidations, ["result": "failed"]) == 0)
        #expect(fromCache > 0 && fromOrigin > 0)
        #expect(page.value(CacheMetricName.bodyBytes, ["source": "cache"]) == Double(fromCache))
        #expect(page.value(CacheMetricName.bodyBytes, ["source": "origin"]) == Double(fromOrigin))
        #expect(page.value(CacheMetricName.requestDuration + "_count", ["outcome": "hit"]) == 2)
        #expect(page.value(CacheMetricName.requestDuration + "_bucket", ["outcome": "miss", "le": "+Inf"]) == 3)
        #expect(Self.total(page, CacheMetricName.backgroundRefreshes) == 0)
        #expect(page.value(CacheMetricName.coalescedRequests) == 0)
        #expect(page.value(CacheMetricName.errors) == 0)
        try await harness.stop()
    }

    @Test("the store's gauges follow what it holds: bytes and entries per tier, and its capacity")
    func storeGauges() async throws {
        let harness = try await MetricsHarness.start(memoryCapacity: 1 << 20)
        let before = try await harness.scrape()
        #expect(before.value(CacheMetricName.storeCapacity, ["tier": "memory"]) == Double(1 << 20))
        #expect(before.value(CacheMetricName.storeCapacity, ["tier": "disk"]) == Double(harness.client.store.stats().diskCapacity))
        #expect(before.value(CacheMetricName.storeUsed, ["tier": "memory"]) == 0)

        try await harness.get("/large/16")
        try await harness.get("/max-age/60")
        let page = try await harness.scrape { $0.value(CacheMetricName.storeEntries, ["tier": "memory"]) == 2 }
        #expect(page.value(CacheMetricName.storeEntries, ["tier": "memory"]) == 2)
        #expect(page.value(CacheMetricName.storeUsed, ["tier": "memory"]) == Double(harness.client.store.stats().memoryUsed))
        #expect((page.value(CacheMetricName.storeUsed, ["tier": "memory"]) ?? 0) > 16 * 1024)
        #expect(page.value(CacheMetricName.storeEntries, ["tier": "disk"]) == 0)
        try await harness.stop()
    }

    @Test("a background refresh is counted apart from the app's requests, its revalidation with the others")
    func backgroundRefresh() async throws {
        let harness = try await MetricsHarness.start()
        #expect(try await harness.get("/swr/1/60").outcome == .miss)
        harness.advance(seconds: 2)  // stale, within stale-while-revalidate: served, refreshed behind
        #expect(try await harness.get("/swr/1/60").outcome == .stale)
        await harness.client.finishBackgroundRefreshes(within: .seconds(5))

        let page = try await harness.scrape { Self.total($0, CacheMetricName.backgroundRefreshes) == 1 }
        #expect(Self.total(page, CacheMetricName.requests) == 2)
        #expect(page.value(CacheMetricName.requests, ["outcome": "stale"]) == 1)
        #expect(page.value(CacheMetricName.backgroundRefreshes, ["outcome": "revalidated"]) == 1)
        #expect(page.value(CacheMetricName.backgroundRefreshDuration + "_count", ["outcome": "revalidated"]) == 1)
        #expect(page.value(CacheMetricName.requestDuration + "_count", ["outcome": "revalidated"]) == 0)
        #expect(page.value(CacheMetricName.revalidations, ["result": "not_modified"]) == 1)
        try await harness.stop()
    }

    @Test("evictions by reason and tier: over capacity, a purged key, a purge of everything")
    func evictions() async throws {
        let harness = try await MetricsHarness.start(memoryCapacity: 40 << 10)
        try await harness.get("/large/16")
        try await harness.get("/large/17")
        try await harness.get("/large/18")  // 51 KB in a 40 KB memory-only store: the oldest goes
        let key = "GET \(harness.origin.baseURL)/large/18"
        #expect(await harness.client.perform(.purge(key: key)).succeeded)
        try await harness.get("/max-age/60")
        #expect(await harness.client.perform(.purgeAll).succeeded)  // /large/17 and /max-age/60

        let page = try await harness.scrape { Self.total($0, CacheMetricName.evictions) == 4 }
        #expect(page.value(CacheMetricName.evictions, ["reason": "capacity", "tier": "both"]) == 1)
        #expect(page.value(CacheMetricName.evictions, ["reason": "purge", "tier": "both"]) == 3)
        #expect(Self.total(page, CacheMetricName.evictions) == 4)
        try await harness.stop()
    }

    @Test("an origin that is gone: the request's error and the error event are counted")
    func originGone() async throws {
        let harness = try await MetricsHarness.start()
        try await harness.origin.stop()
        await #expect(throws: (any Error).self) { try await harness.get("/no-store") }

        let page = try await harness.scrape { $0.value(CacheMetricName.requests, ["outcome": "error"]) == 1 }
        #expect(page.value(CacheMetricName.requests, ["outcome": "error"]) == 1)
        #expect(page.value(CacheMetricName.errors) == 1)
        #expect(page.value(CacheMetricName.bodyBytes, ["source": "origin"]) == 0)
        try await harness.stop()
    }

    @Test("latency is a histogram in seconds: a 150 ms origin lands above the 100 ms bucket")
    func latencyBuckets() async throws {
        let harness = try await MetricsHarness.start(realTime: true)
        try await harness.get("/slow/150")

        let page = try await harness.scrape { $0.value(CacheMetricName.requestDuration + "_count", ["outcome": "miss"]) == 1 }
        let duration = CacheMetricName.requestDuration
        #expect(page.types[duration] == "histogram")
        #expect(page.value(duration + "_bucket", ["outcome": "miss", "le": "0.1"]) == 0)
        #expect(page.value(duration + "_bucket", ["outcome": "miss", "le": "10.0"]) == 1)
        #expect((page.value(duration + "_sum", ["outcome": "miss"]) ?? 0) >= 0.15)
        // The buckets start low enough for a hit from memory.
        #expect(page.value(duration + "_bucket", ["outcome": "hit", "le": "0.0001"]) == 0)
        try await harness.stop()
    }
}
