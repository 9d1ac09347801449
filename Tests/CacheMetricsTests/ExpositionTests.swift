import CacheEvents
import CacheMetrics
import CacheScopeApp
import CoreMetrics
import HTTPCaching
import Testing

/// What `--metrics` serves, read back as Prometheus would: the latency histograms' cumulative
/// buckets, sum and count, a help text for every family, one series per set of labels.
@Suite("The metrics' Prometheus exposition")
struct ExpositionTests {
    private static let duration = CacheMetricName.requestDuration

    @Test("a latency histogram counts each value in every bucket at or above it, +Inf and _count the total, _sum in seconds")
    func cumulativeBuckets() throws {
        let exposition = CacheMetricsExposition()
        let timer = CoreMetrics.Timer(label: Self.duration, dimensions: [("outcome", "miss")], factory: exposition)
        timer.recordNanoseconds(50_000)  // 50 µs: the first bucket (100 µs)
        timer.recordNanoseconds(100_000)  // exactly 100 µs: `le` is inclusive
        timer.recordNanoseconds(3_000_000)  // 3 ms: the 5 ms bucket
        timer.recordNanoseconds(60_000_000_000)  // a minute: above every bound
        timer.recordNanoseconds(-5)  // a clock that stepped back counts as 0
        let page = try PrometheusText(parsing: exposition.text())
        func bucket(_ le: String) -> Double? { page.value(Self.duration + "_bucket", ["outcome": "miss", "le": le]) }
        #expect(bucket("0.0001") == 3)
        #expect(bucket("0.00025") == 3)
        #expect(bucket("0.0025") == 3)
        #expect(bucket("0.005") == 4)
        #expect(bucket("10.0") == 4)
        #expect(bucket("+Inf") == 5)
        #expect(page.value(Self.duration + "_count", ["outcome": "miss"]) == 5)
        let sum = try #require(page.value(Self.duration + "_sum", ["outcome": "miss"]))
        #expect(abs(sum - 60.00315) < 1e-9)
        #expect(page.samples(named: Self.duration + "_bucket").count == CacheMetrics.latencyBuckets.count + 1)
        #expect(page.types[Self.duration] == "histogram")
    }

    @Test("every family CacheMetrics reports has a # HELP line")
    func helpTexts() async throws {
        let bus = EventBus()
        let exposition = CacheMetricsExposition()
        let metrics = CacheMetrics(events: bus, factory: exposition)
        let page = try PrometheusText(parsing: exposition.text())
        await metrics.stop()
        #expect(page.types.count == 14)
        for name in page.types.keys {
            #expect(page.helps[name] == CacheMetricName.help(for: name), "\(name)")
            #expect(page.helps[name]?.isEmpty == false, "\(name)")
        }
    }

    @Test("two reporters on one exposition share each series: one line per series, the counts of both")
    func sharedSeries() async throws {
        let bus = EventBus()
        let exposition = CacheMetricsExposition()
        let first = CacheMetrics(events: bus, factory: exposition)
        let second = CacheMetrics(events: bus, factory: exposition)
        bus.publish(.requestFinished(RequestFinished(
            status: 200, latency: 0.002, bytesFromNetwork: 10, bytesFromCache: 0, outcome: .miss, reason: "", background: false)), requestID: 1)
        await first.stop()
        await second.stop()
        let page = try PrometheusText(parsing: exposition.text())  // a series twice fails the parse
        #expect(page.value(Self.duration + "_count", ["outcome": "miss"]) == 2)
        #expect(page.value(CacheMetricName.requests, ["outcome": "miss"]) == 2)
    }

    @Test("a line break or quote in a label value is escaped even where it is part of a larger character (\\r\\n, a quote with an accent)")
    func escapesBytes() throws {
        let exposition = CacheMetricsExposition()
        let value = "two\r\nlines \"\u{301}quoted"
        let timer = CoreMetrics.Timer(label: Self.duration, dimensions: [("outcome", value)], factory: exposition)
        timer.recordNanoseconds(1)
        let text = exposition.text()
        #expect(!text.contains("\r\n"))
        let page = try PrometheusText(parsing: text)
        #expect(page.value(Self.duration + "_count", ["outcome": "two\r\nlines \"\u{301}quoted"]) == 1)
    }

    @Test("a timer whose label name Prometheus would not take (or `le`) is left to swift-prometheus, which rewrites it")
    func oddLabelNames() throws {
        let exposition = CacheMetricsExposition()
        CoreMetrics.Timer(label: Self.duration, dimensions: [("http.method", "GET")], factory: exposition).recordNanoseconds(1)
        let page = try PrometheusText(parsing: exposition.text())
        #expect(page.value(Self.duration + "_count", ["http_method": "GET"]) == 1)
    }

    @Test("a floating-point counter or a meter under one of the cache's names shares its help text (no crash on a mismatch)")
    func otherHandlerKinds() throws {
        let exposition = CacheMetricsExposition()
        let bytes = Counter(label: CacheMetricName.errors, factory: exposition)
        FloatingPointCounter(label: CacheMetricName.errors, factory: exposition).increment(by: 2.0)
        bytes.increment()
        Meter(label: CacheMetricName.storeUsed, dimensions: [("tier", "memory")], factory: exposition).set(5)
        let page = try PrometheusText(parsing: exposition.text())
        #expect(page.helps[CacheMetricName.errors] == CacheMetricName.help(for: CacheMetricName.errors))
        #expect(page.value(CacheMetricName.storeUsed, ["tier": "memory"]) == 5)
    }

    @Test("a destroyed timer leaves the page; a label value is escaped")
    func destroyAndEscape() throws {
        let exposition = CacheMetricsExposition()
        let odd = CoreMetrics.Timer(label: Self.duration, dimensions: [("outcome", "a \"quoted\\ value\nthere")], factory: exposition)
        odd.recordNanoseconds(1)
        var page = try PrometheusText(parsing: exposition.text())
        #expect(page.value(Self.duration + "_count", ["outcome": "a \"quoted\\ value\nthere"]) == 1)
        odd.destroy()
        page = try PrometheusText(parsing: exposition.text())
        #expect(page.samples(named: Self.duration + "_count").isEmpty)
        #expect(page.types[Self.duration] == nil)
    }

    @Test("a timer CacheMetrics does not make is swift-prometheus' histogram, on the same page")
    func otherTimers() throws {
        let exposition = CacheMetricsExposition()
        let timer = CoreMetrics.Timer(label: "app_work_seconds", factory: exposition)
        timer.recordNanoseconds(2_000_000_000)
        let page = try PrometheusText(parsing: exposition.text())
        #expect(page.types["app_work_seconds"] == "histogram")
        #expect(page.value("app_work_seconds_count") == 1)
        #expect(page.helps["app_work_seconds"] == nil)
    }
}
