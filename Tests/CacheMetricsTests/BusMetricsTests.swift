import CacheEvents
import CacheMetrics
import CacheScopeApp
import CacheStore
import HTTPCaching
import Testing

/// What only a bus can be made to say on cue — a revalidation that got no answer, events a full
/// buffer lost — published on a real `EventBus`, and the names every metric is exported under.
@Suite("Metrics from the event bus")
struct BusMetricsTests {
    /// Metrics of `bus` into a fresh exposition.
    private static func metrics(of bus: EventBus, storeStats: StoreStats? = nil) -> (CacheMetrics, CacheMetricsExposition) {
        let exposition = CacheMetricsExposition()
        return (CacheMetrics(events: bus, storeStats: storeStats, factory: exposition), exposition)
    }

    private static func finished(_ outcome: CacheOutcome, background: Bool = false) -> CacheEventKind {
        .requestFinished(RequestFinished(
            status: 200, latency: 0.001, bytesFromNetwork: 0, bytesFromCache: 0, outcome: outcome, reason: "", background: background))
    }

    @Test("a revalidation that ends without a 304 or a new response counts as failed")
    func failedRevalidation() async throws {
        let bus = EventBus()
        let (metrics, exposition) = Self.metrics(of: bus)
        bus.publish(.revalidationSent(RevalidationSent(ifNoneMatch: "\"v1\"", ifModifiedSince: nil)), requestID: 1)
        bus.publish(.revalidationSent(RevalidationSent(ifNoneMatch: "\"v1\"", ifModifiedSince: nil)), requestID: 2)
        bus.publish(.notModified(NotModified(freshened: 1, ttl: 60)), requestID: 2)
        bus.publish(Self.finished(.error), requestID: 1)
        bus.publish(Self.finished(.revalidated), requestID: 2)
        await metrics.stop()  // everything published before is recorded

        let page = try PrometheusText(parsing: exposition.text())
        #expect(page.value(CacheMetricName.revalidations, ["result": "failed"]) == 1)
        #expect(page.value(CacheMetricName.revalidations, ["result": "not_modified"]) == 1)
        #expect(page.value(CacheMetricName.requests, ["outcome": "error"]) == 1)
    }

    @Test("events lost to a full buffer are counted, so a short count can be told from a quiet cache")
    func droppedEvents() async throws {
        let bus = EventBus()
        let (metrics, exposition) = Self.metrics(of: bus)
        bus.publish(.dropped(Dropped(count: 5)))
        bus.publish(.dropped(Dropped(count: 2)))
        await metrics.stop()
        let page = try PrometheusText(parsing: exposition.text())
        #expect(page.value(CacheMetricName.droppedEvents) == 7)
    }

    @Test("errors and the store's figures published on the bus reach the metrics (the kinds their subscription takes)")
    func errorsAndStoreStatsFromTheBus() async throws {
        let bus = EventBus()
        let (metrics, exposition) = Self.metrics(of: bus)
        bus.publish(.error(ErrorInfo(message: "disk degraded")))
        bus.publish(.storeStats(StoreStats(memoryUsed: 300, memoryCapacity: 4_000, diskUsed: 0, diskCapacity: 0, entryCount: 2)))
        bus.publish(.lookup(Lookup(verdict: .fresh, reason: "max-age=60")), requestID: 1)  // a kind the metrics leave out
        await metrics.stop()
        let page = try PrometheusText(parsing: exposition.text())
        #expect(page.value(CacheMetricName.errors) == 1)
        #expect(page.value(CacheMetricName.storeUsed, ["tier": "memory"]) == 300)
    }

    @Test("the store's figures given at the start are exported before any event")
    func initialStoreStats() async throws {
        let bus = EventBus()
        let stats = StoreStats(
            memoryUsed: 1_000, memoryCapacity: 4_000, diskUsed: 20_000, diskCapacity: 80_000, entryCount: 5, memoryEntryCount: 2,
            diskEntryCount: 5, degradedNamespaces: ["images"])
        let (metrics, exposition) = Self.metrics(of: bus, storeStats: stats)
        let page = try PrometheusText(parsing: exposition.text())
        await metrics.stop()
        #expect(page.value(CacheMetricName.storeUsed, ["tier": "memory"]) == 1_000)
        #expect(page.value(CacheMetricName.storeCapacity, ["tier": "memory"]) == 4_000)
        #expect(page.value(CacheMetricName.storeUsed, ["tier": "disk"]) == 20_000)
        #expect(page.value(CacheMetricName.storeCapacity, ["tier": "disk"]) == 80_000)
        #expect(page.value(CacheMetricName.storeEntries, ["tier": "memory"]) == 2)
        #expect(page.value(CacheMetricName.storeEntries, ["tier": "disk"]) == 5)
        #expect(page.value(CacheMetricName.degradedNamespaces) == 1)
    }

    @Test("names follow Prometheus: cachescope_ prefix, counters in _total, histograms in _seconds, every series there from the start")
    func names() async throws {
        let (metrics, exposition) = Self.metrics(of: EventBus())
        let page = try PrometheusText(parsing: exposition.text())
        await metrics.stop()
        #expect(page.types == [
            CacheMetricName.requests: "counter", CacheMetricName.coalescedRequests: "counter",
            CacheMetricName.backgroundRefreshes: "counter", CacheMetricName.bodyBytes: "counter",
            CacheMetricName.revalidations: "counter", CacheMetricName.evictions: "counter", CacheMetricName.errors: "counter",
            CacheMetricName.droppedEvents: "counter", CacheMetricName.requestDuration: "histogram",
            CacheMetricName.backgroundRefreshDuration: "histogram", CacheMetricName.storeUsed: "gauge",
            CacheMetricName.storeCapacity: "gauge", CacheMetricName.storeEntries: "gauge", CacheMetricName.degradedNamespaces: "gauge",
        ])
        for (name, type) in page.types {
            #expect(name.hasPrefix("cachescope_"))
            #expect(name.hasSuffix("_total") == (type == "counter"), "\(name)")
            if type == "histogram" { #expect(name.hasSuffix("_seconds")) }
        }
        #expect(page.samples(named: CacheMetricName.requests).count == CacheOutcome.allCases.count)
        #expect(page.samples(named: CacheMetricName.evictions).count == EvictionReason.allCases.count * EntryTier.allCases.count)
        #expect(page.samples(named: CacheMetricName.requestDuration + "_bucket").count == CacheOutcome.allCases.count * (CacheMetrics.latencyBuckets.count + 1))
        #expect(page.samples.allSatisfy { $0.value == 0 })
    }
}
