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
