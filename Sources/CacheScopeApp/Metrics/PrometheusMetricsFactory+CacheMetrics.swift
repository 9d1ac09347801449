import CacheMetrics
public import Prometheus

extension PrometheusMetricsFactory {
    /// A factory for ``CacheMetrics`` into `registry`: its two latency histograms get
    /// ``CacheMetrics/latencyBuckets`` (100 µs to 10 s) instead of the factory's default, which
    /// starts at 5 ms — above every hit from memory.
    public static func cacheMetrics(registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        for name in [CacheMetricName.requestDuration, CacheMetricName.backgroundRefreshDuration] {
            factory.durationHistogramBuckets[name] = CacheMetrics.latencyBuckets
        }
        return factory
    }
}
