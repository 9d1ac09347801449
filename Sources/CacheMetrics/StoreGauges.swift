import CacheStore
import CoreMetrics

/// The store's figures as gauges, per tier: bytes used, capacity, entries; and the namespaces
/// whose disk failed. Set whole from each `storeStats` event (the client publishes one within
/// its `statsInterval` of a change, never while nothing changes).
struct StoreGauges: Sendable {
    private let memoryUsed: Gauge
    private let memoryCapacity: Gauge
    private let memoryEntries: Gauge
    private let diskUsed: Gauge
    private let diskCapacity: Gauge
    private let diskEntries: Gauge
    private let degradedNamespaces: Gauge

    init(factory: any MetricsFactory) {
        func gauge(_ label: String, _ tier: EntryTier) -> Gauge {
            Gauge(label: label, dimensions: [(CacheMetricName.Label.tier, tier.rawValue)], factory: factory)
        }
        memoryUsed = gauge(CacheMetricName.storeUsed, .memory)
        memoryCapacity = gauge(CacheMetricName.storeCapacity, .memory)
        memoryEntries = gauge(CacheMetricName.storeEntries, .memory)
        diskUsed = gauge(CacheMetricName.storeUsed, .disk)
        diskCapacity = gauge(CacheMetricName.storeCapacity, .disk)
        diskEntries = gauge(CacheMetricName.storeEntries, .disk)
        degradedNamespaces = Gauge(label: CacheMetricName.degradedNamespaces, factory: factory)
    }

    func record(_ stats: StoreStats) {
        memoryUsed.record(stats.memoryUsed)
        memoryCapacity.record(stats.memoryCapacity)
        memoryEntries.record(stats.memoryEntryCount)
        diskUsed.record(stats.diskUsed)
        diskCapacity.record(stats.diskCapacity)
        diskEntries.record(stats.diskEntryCount)
        degradedNamespaces.record(stats.degradedNamespaces.count)
    }
}
