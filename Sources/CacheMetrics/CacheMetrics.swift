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
/// try await client.shutdown()   // ends the bus: the metrics record what is left and stop
/// await metrics.stop()
/// ```
///
/// The names and labels are ``CacheMetricName``'s (docs/metrics.md): requests and latency by
/// outcome, background refreshes apart, coalesced requests, body bytes from the cache and from
/// the origin, revalidations by result, evictions by reason and tier, errors, and the store's
/// bytes used, capacity and entries per tier.
///
/// **Off the request path.** The metrics hold one lossless subscription of the bus
/// (``EventDelivery/recorder``: exact counts, and should its million-event buffer ever fill, a
/// `dropped` event says how much is missing and ``CacheMetricName/droppedEvents`` counts it),
/// of only the kinds they count (``CacheEventKinds``). A request pays what such a subscriber
/// costs — of a fresh hit's four events, one appended to one more buffer under the bus's
/// lock — and nothing of the metrics themselves: a task of their own takes the events in
/// batches and moves the metrics. After each batch it pauses for ``batchingInterval`` (as a
/// dashboard's subscription does), so under load publishers find nobody to wake and only
/// append; an idle client wakes nothing.
public final class CacheMetrics: Sendable {
    /// The shortest time between two batches of events the metrics take: 20 ms. Metrics are
    /// read every few seconds; a request's events are counted within this much of it.
    public static let batchingInterval: Duration = .milliseconds(20)

    /// Histogram buckets for the two latency timers, in seconds: from 100 µs (a fresh hit in
    /// memory) to 10 s (a slow origin), about three per decade. For a backend that takes
    /// buckets per metric, e.g. `PrometheusMetricsFactory.durationHistogramBuckets`.
    public static let latencyBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500),
        .milliseconds(1), .microseconds(2_500), .milliseconds(5),
        .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .milliseconds(2_500), .seconds(5), .seconds(10),
    ]

    private let subscription: EventSubscription
    private let task: Task<Void, Never>

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
        let subscription = events.subscribe(.recorder, only: EventMetrics.kinds)
        self.subscription = subscription
        let batches = subscription.batches
        task = Task.detached {
            var metrics = metrics
            for await batch in batches {
                for event in batch { metrics.record(event) }
                // Cancelled: the sleep ends at once, and so does the subscription.
                try? await Task.sleep(for: Self.batchingInterval)
            }
        }
    }

    /// Stops reporting, after the events already published are recorded. The client's
    /// `shutdown()` ends the reporting too (it ends the bus), and so does releasing this
    /// object; calling this afterwards only waits for the last batch.
    public func stop() async {
        subscription.finish()
        await task.value
    }

    deinit { subscription.finish() }
}
