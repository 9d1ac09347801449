import CacheEvents
import CacheStore
import CoreMetrics
import HTTPCaching

/// The metrics of one client, made once from a factory, and how each event moves them.
///
/// Every series a label can take is made up front (7 outcomes, 5 eviction reasons × 3 tiers, …),
/// so a backend shows zeros before the first request instead of a missing series, and recording
/// an event only looks a handle up — it never asks the factory, which locks and allocates.
///
/// A finished request's two series are the backend's handlers themselves, side by side per
/// outcome (``FinishedSeries``), not swift-metrics' `Counter` and `Timer` around them: on a
/// fresh hit of about 2 µs each object in the chain from this struct to the backend's atomic
/// is a load that has usually left the CPU's nearest cache since the last request.
struct EventMetrics: Sendable {
    private let requests: OutcomeSeries<FinishedSeries>
    private let backgroundRefreshes: OutcomeSeries<FinishedSeries>
    private let coalesced: Counter
    /// Body bytes, as handlers for the same reason as ``FinishedSeries`` (a hit counts its bytes).
    private let bytesFromCache: any CounterHandler
    private let bytesFromOrigin: any CounterHandler
    private let revalidations: [RevalidationResult: Counter]
    private let evictions: [EvictionSeries: Counter]
    private let errors: Counter
    private let dropped: Counter
    private let store: StoreGauges
    /// Requests whose revalidation was sent and not yet answered: one that finishes without a
    /// `notModified` or `modified` counts as `failed`. Holds requests in flight only.
    private var revalidating: Set<UInt64> = []

    init(factory: any MetricsFactory) {
        func outcome(_ value: CacheOutcome) -> [(String, String)] { [(CacheMetricName.Label.outcome, value.rawValue)] }
        requests = OutcomeSeries {
            FinishedSeries(
                count: factory.makeCounter(label: CacheMetricName.requests, dimensions: outcome($0)),
                latency: factory.makeTimer(label: CacheMetricName.requestDuration, dimensions: outcome($0)))
        }
        backgroundRefreshes = OutcomeSeries {
            FinishedSeries(
                count: factory.makeCounter(label: CacheMetricName.backgroundRefreshes, dimensions: outcome($0)),
                latency: factory.makeTimer(label: CacheMetricName.backgroundRefreshDuration, dimensions: outcome($0)))
        }
        revalidations = Dictionary(uniqueKeysWithValues: RevalidationResult.allCases.map { result in
            (result, Counter(label: CacheMetricName.revalidations, dimensions: [(CacheMetricName.Label.result, result.rawValue)], factory: factory))
        })
        coalesced = Counter(label: CacheMetricName.coalescedRequests, factory: factory)
        let source = CacheMetricName.Label.source
        bytesFromCache = factory.makeCounter(label: CacheMetricName.bodyBytes, dimensions: [(source, "cache")])
        bytesFromOrigin = factory.makeCounter(label: CacheMetricName.bodyBytes, dimensions: [(source, "origin")])
        evictions = Dictionary(uniqueKeysWithValues: EvictionSeries.all.map { series in
            (series, Counter(label: CacheMetricName.evictions, dimensions: series.dimensions, factory: factory))
        })
        errors = Counter(label: CacheMetricName.errors, factory: factory)
        dropped = Counter(label: CacheMetricName.droppedEvents, factory: factory)
        store = StoreGauges(factory: factory)
    }

    /// The kinds ``record(_:)`` moves a metric for: the metrics observe only these (of a fresh
    /// hit's four events, only `requestFinished`).
    static let kinds: CacheEventKinds = [
        .requestFinished, .revalidationSent, .notModified, .modified, .evicted, .purged, .storeStats, .error, .dropped,
    ]

    /// Moves the metrics an event concerns; events no metric counts are passed over.
    mutating func record(_ event: CacheEvent) {
        switch event.kind {
        case .requestFinished(let finished):
            // Most requests sent no revalidation: no ID to hash then.
            if !revalidating.isEmpty, let id = event.requestID, revalidating.remove(id) != nil {
                revalidations[.failed]?.increment()
            }
            record(finished)
        case .revalidationSent:
            if let id = event.requestID { revalidating.insert(id) }
        case .notModified:
            answered(event.requestID, .notModified)
        case .modified:
            answered(event.requestID, .modified)
        case .evicted(let evicted):
            evictions[EvictionSeries(reason: evicted.reason, tier: evicted.tier)]?.increment()
        case .purged(let purged) where purged.scope == .all && purged.count > 0:
            // The store reports a purge of everything as one change, not entry by entry.
            evictions[EvictionSeries(reason: .purged, tier: .both)]?.increment(by: purged.count)
        case .storeStats(let stats):
            store.record(stats)
        case .error:
            errors.increment()
        case .dropped(let lost):
            dropped.increment(by: lost.count)
        default:
            break
        }
    }

    /// The store's figures (those a client has when the metrics start).
    func record(_ stats: StoreStats) { store.record(stats) }

    private mutating func answered(_ requestID: UInt64?, _ result: RevalidationResult) {
        if let requestID { revalidating.remove(requestID) }
        revalidations[result]?.increment()
    }

    private func record(_ finished: RequestFinished) {
        // Network bytes count whoever fetched them; a background refresh is no request of the app.
        if finished.bytesFromNetwork > 0 { bytesFromOrigin.increment(by: Int64(finished.bytesFromNetwork)) }
        if finished.background { return backgroundRefreshes[finished.outcome].record(latency: finished.latency) }
        requests[finished.outcome].record(latency: finished.latency)
        if finished.bytesFromCache > 0 { bytesFromCache.increment(by: Int64(finished.bytesFromCache)) }
        if finished.coalesced { coalesced.increment() }
    }
}

/// A finished request's series of one outcome: how many, and how long they took.
struct FinishedSeries: Sendable {
    let count: any CounterHandler
    let latency: any TimerHandler

    /// Counts one request that took `latency` seconds (a negative figure as 0, one beyond 292
    /// years as that).
    func record(latency seconds: Double) {
        count.increment(by: 1)
        // To the nearest nanosecond by adding a half before truncating (a figure at or above 0),
        // without `rounded()`'s call into the C library; it may differ from it by one
        // nanosecond in the last bit's cases, which a latency histogram does not see.
        latency.recordNanoseconds(Int64(min(max(0, seconds) * 1e9 + 0.5, 9e18)))
    }
}

/// How a revalidation ended, as the `result` label writes it.
enum RevalidationResult: String, CaseIterable, Sendable {
    /// The origin answered 304 and the stored response was served.
    case notModified = "not_modified"
    /// The origin answered with a new response.
    case modified
    /// No usable answer: the origin could not be reached or was too slow, or its 304 did not
    /// select the stored response (which was then fetched in full).
    case failed
}

/// One `cachescope_evictions_total` series: a reason and the tier the entry left.
struct EvictionSeries: Hashable, Sendable {
    let reason: EvictionReason
    let tier: EntryTier

    static let all = EvictionReason.allCases.flatMap { reason in EntryTier.allCases.map { EvictionSeries(reason: reason, tier: $0) } }

    var dimensions: [(String, String)] {
        [(CacheMetricName.Label.reason, reason.rawValue), (CacheMetricName.Label.tier, tier.rawValue)]
    }
}
