/// The names ``CacheMetrics`` reports under, and their label names: Prometheus conventions
/// (`snake_case`, the unit in the name, `_total` on counters), so a Prometheus backend exports
/// them as they are. docs/metrics.md describes each one.
///
/// A backend that needs settings per metric takes them by these names, e.g. histogram buckets:
///
/// ```swift
/// factory.durationHistogramBuckets[CacheMetricName.requestDuration] = CacheMetrics.latencyBuckets
/// ```
public enum CacheMetricName {
    /// Counter, label `outcome`: requests of the app answered, background refreshes left out.
    public static let requests = "cachescope_requests_total"
    /// Counter: requests that shared another request's origin fetch.
    public static let coalescedRequests = "cachescope_coalesced_requests_total"
    /// Counter, label `outcome`: stale-while-revalidate refreshes the cache made on its own.
    public static let backgroundRefreshes = "cachescope_background_refreshes_total"
    /// Counter, label `source` (`cache` or `origin`): response body bytes served from the store,
    /// and received from the origin.
    public static let bodyBytes = "cachescope_body_bytes_total"
    /// Counter, label `result` (`not_modified`, `modified`, `failed`): conditional requests sent
    /// to the origin, background refreshes included.
    public static let revalidations = "cachescope_revalidations_total"
    /// Counter, labels `reason` and `tier`: entries that left the store or one of its tiers.
    public static let evictions = "cachescope_evictions_total"
    /// Counter: `error` events (origin unreachable, disk degraded, …).
    public static let errors = "cachescope_errors_total"
    /// Counter: always 0 since the metrics observe the bus and lose no event (it counted what
    /// their own subscription lost); kept for dashboards and alerts built on it. A `dropped`
    /// event published on the bus itself would be counted; nothing in CacheScope publishes one.
    public static let droppedEvents = "cachescope_metrics_dropped_events_total"
    /// Timer (a histogram in seconds), label `outcome`: how long requests of the app took.
    public static let requestDuration = "cachescope_request_duration_seconds"
    /// Timer (a histogram in seconds), label `outcome`: how long background refreshes took.
    public static let backgroundRefreshDuration = "cachescope_background_refresh_duration_seconds"
    /// Gauge, label `tier` (`memory` or `disk`): bytes the store holds.
    public static let storeUsed = "cachescope_store_used_bytes"
    /// Gauge, label `tier`: the store's capacity in bytes, as its statistics report it.
    public static let storeCapacity = "cachescope_store_capacity_bytes"
    /// Gauge, label `tier`: entries with a copy in that tier.
    public static let storeEntries = "cachescope_store_entries"
    /// Gauge: namespaces whose disk failed and that keep entries in memory only.
    public static let degradedNamespaces = "cachescope_store_degraded_namespaces"

    /// The label names.
    public enum Label {
        /// A request's ``HTTPCaching/CacheOutcome`` word: `hit`, `stale`, `revalidated`,
        /// `modified`, `miss`, `bypass`, `error`.
        public static let outcome = "outcome"
        /// Where body bytes came from: `cache` or `origin`.
        public static let source = "source"
        /// A revalidation's result: `not_modified`, `modified` or `failed`.
        public static let result = "result"
        /// An eviction's ``CacheStore/EvictionReason`` word: `capacity`, `expired`, `purge`, `corrupt`.
        public static let reason = "reason"
        /// A store tier: `memory` or `disk`; for evictions also `both` (the entry left the store).
        public static let tier = "tier"
    }
}
