public import CacheEvents
public import CacheStore
public import CoreMetrics

/// Reports a caching client's events as swift-metrics counters, gauges and timers, so an app
/// that embeds the client sees its cache in the metrics backend it already uses (Prometheus,
/// StatsD, OpenTelemetry: whatever `MetricsSystem` was bootstrapped with, or the `factory` given).
///
/// ```swift
/// let client = try await CachingClient()
/// let metrics = CacheMetrics(events: client.events, storeStats: client.store.stats())
/// // … requests …
/// try await client.shutdown()   // ends the bus, and with it the reporting
/// await metrics.stop()
/// ```
///
/// The names and labels are ``CacheMetricName``'s (docs/metrics.md): requests and latency by
/// outcome, background refreshes apart, coalesced requests, body bytes from the cache and from
/// the origin, revalidations by result, evictions by reason and tier, errors, and the store's
/// bytes used, capacity and entries per tier.
///
/// **In the request's task, for a few nanoseconds.** The metrics observe the bus
/// (``EventBus/observe(_:only:)``) for only the kinds they count (``CacheEventKinds``): each such
/// event moves its metrics as it is published, under the bus's lock — no copy into a buffer, no
/// task to wake, nothing ever lost or late. Of a fresh hit's four events only `requestFinished`
/// concerns them: two counters and a timer (docs/metrics.md has what that costs). The backend's
/// increments run there too, as swift-metrics expects of them (with `CacheMetricsExposition`,
/// what `--metrics` serves: an atomic add for a counter, two for a latency histogram).
public final class CacheMetrics: Sendable {
    /// Histogram buckets for the two latency timers, in seconds: from 100 µs (a fresh hit in
    /// memory) to 10 s (a slow origin), about three per decade. For a backend that takes
    /// buckets per metric, e.g. `PrometheusMetricsFactory.durationHistogramBuckets` (`CacheMetricsExposition` gives its own histograms these).
    public static let latencyBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500),
        .milliseconds(1), .microseconds(2_500), .milliseconds(5),
        .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .milliseconds(2_500), .seconds(5), .seconds(10),
    ]

    private let observation: EventObservation

    /// Makes every metric through `factory` and starts reporting the events published on
    /// `events` from now on.
    ///
    /// - Parameters:
    ///   - events: the client's bus (`client.events`).
    ///   - storeStats: the store's figures now (`client.store.stats()`), so the store's gauges
    ///     are right before its next change; `nil` leaves them at zero until then.
    ///   - factory: the backend; default the one `MetricsSystem` was bootstrapped with.
    public init(events: EventBus, storeStats: StoreStats? = nil, factory: any MetricsFactory = MetricsSystem.factory) {
        let metrics = EventMetrics(factory: factory)
        if let storeStats { metrics.record(storeStats) }
        observation = events.observe(MetricsObserver(metrics), only: EventMetrics.kinds)
    }

    /// Stops reporting: no event published after this returns moves a metric. (Every event
    /// published before it has been recorded already, so it returns at once; `async` as it
    /// was when the metrics had a task to wait for.) The client's `shutdown()` ends the
    /// reporting too (it ends the bus), and so does releasing this object.
    public func stop() async {
        observation.cancel()
    }
}

/// Moves the metrics for each event the bus shows it.
///
/// `@unchecked Sendable` with a plain `var`: the bus calls ``observe(_:)`` under its own lock
/// (``EventObserver``), so no two calls overlap, and this observer is on one bus only (made
/// and handed to it in ``CacheMetrics/init(events:storeStats:factory:)``, never kept anywhere
/// else). A lock of its own would cost every request a lock and unlock more; for the same
/// reason the runtime's exclusivity check on each access is off (the bus's lock already
/// makes every access exclusive).
private final class MetricsObserver: EventObserver, @unchecked Sendable {
    @exclusivity(unchecked) private var metrics: EventMetrics

    init(_ metrics: EventMetrics) { self.metrics = metrics }

    func observe(_ event: CacheEvent) {
        metrics.record(event)
    }
}
