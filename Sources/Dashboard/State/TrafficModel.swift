import HTTPTypes
public import CacheStore
public import CacheEvents
import SessionLog

/// Everything the dashboard shows about the traffic, folded from ``CacheEvent``s and nothing
/// else: counters, rates, latency percentiles, the recent requests, the stored entries and the
/// store's gauges.
///
/// It is a pure fold (``EventFolding``): the same events in the same order always give the same
/// model, so a replay that seeks rebuilds exactly what playing would have shown. Figures that
/// change with the clock alone (TTL countdowns, rates of a quiet second) are computed for a
/// `now` the caller passes in, never read from a clock here.
///
/// ```swift
/// var model = TrafficModel()
/// for event in events { model.apply(event) }
/// model.counters.hitRatio        // one definition: TrafficCounters'
/// model.requestRate(at: now)     // requests/s over the last 10 s of session time
/// ```
///
/// Memory is bounded: the request ring keeps ``RequestLog/defaultCapacity`` requests, rates,
/// the timeline and latencies live in fixed-size buckets, and entries leave the table when the
/// store evicts them.
public struct TrafficModel: EventFolding {
    /// Outcome counts, hit ratios and bytes: the single definition of those figures.
    public internal(set) var counters = TrafficCounters()
    /// The most recent requests.
    public internal(set) var requests = RequestLog()
    /// The stored entries.
    public internal(set) var entries = EntryTable()
    /// The latest store usage and capacity, once reported.
    public internal(set) var store: StoreStats?
    /// Latencies of finished requests.
    public internal(set) var latency = LatencyHistogram()
    /// Latencies of finished requests, by outcome.
    public internal(set) var latencyByOutcome = OutcomeLatencies()
    /// Requests, hits and evictions over session time (the sparklines, evictions over time).
    public internal(set) var timeline = TrafficTimeline()
    /// The time of the latest event (session seconds).
    public internal(set) var clock: Double = 0
    /// The time of the first event, which rates count from while the session is young.
    public internal(set) var startTime: Double?
    /// Events applied.
    public internal(set) var eventsApplied = 0
    /// The latest `error` event.
    public internal(set) var lastError: ErrorNote?
    /// The latest purge that came from another instance through the shared tier.
    public internal(set) var lastSharedPurge: SharedPurgeNote?
    /// Counters and store usage of each attached instance, by ``CacheEvent/instance``, once
    /// events of more than one have arrived (empty while there is one: then ``counters`` and
    /// ``store`` are its own).
    public internal(set) var perInstance: [InstanceFigures] = []
    /// The attached instances' names by index, which rows carry for the `instance` column and
    /// filter; empty while the dashboard watches one. Set from the roster, not from events.
    public internal(set) var instanceNames: [String] = []
    /// The highest `seq` folded so far.
    public internal(set) var lastSeq: UInt64 = 0
    /// Instances whose life ended after an event not folded yet (``endLife(of:after:)``).
    var pendingLifeEnds: [LifeEnd] = []

    /// An empty model.
    public init() {}

    /// The seconds rates are taken over: 10.
    public static let rateSeconds = 10

    /// Finished requests per second over the last 10 s of session time ending at `now`.
    public func requestRate(at now: Double) -> Double {
        perSecond(timeline.total(lastSeconds: Self.rateSeconds, endingAt: now).requests, at: now)
    }

    /// Evictions per second for `reason` over the last 10 s ending at `now`.
    public func evictionRate(_ reason: EvictionReason, at now: Double) -> Double {
        perSecond(timeline.total(lastSeconds: Self.rateSeconds, endingAt: now).evictions(reason), at: now)
    }

    /// `count` over the rate window, or over the session's age while it is younger than the
    /// window (so its first seconds are not understated).
    private func perSecond(_ count: Int, at now: Double) -> Double {
        Double(count) / min(Double(Self.rateSeconds), max(1, now - (startTime ?? now)))
    }

    // MARK: Folding

    /// Adds one event's effect.
    public mutating func apply(_ event: CacheEvent) {
        eventsApplied += 1
        lastSeq = max(lastSeq, event.seq)
        // An instance that went away after this event: its open requests end once it is folded.
        defer { if !pendingLifeEnds.isEmpty { endDueLives() } }
        clock = max(clock, event.time)
        if startTime == nil { startTime = event.time }
        // One instance: its figures are the totals (no second fold of the counters).
        if event.instance != 0 || !perInstance.isEmpty { applyPerInstance(event) }
        counters.apply(event)
        let instance = event.instance
        switch event.kind {
        case .requestStarted(let started):
            guard let id = event.requestID else { return }
            var record = RequestRecord(
                id: id, started: event.time, method: started.method, url: started.url, cacheKey: started.cacheKey,
                policy: started.policy, requestHeaders: started.headers)
            record.instance = instance
            if !instanceNames.isEmpty { record.instanceName = name(of: instance) }
            requests.append(record, startSeq: event.seq)
        case .lookup(let lookup):
            updateRequest(event) { $0.lookup = lookup }
        case .revalidationSent(let sent):
            updateRequest(event) { $0.revalidation = sent }
        case .notModified(let notModified):
            applyNotModified(notModified, event)
        case .modified(let modified):
            updateRequest(event) { $0.modifiedStatus = modified.status }
        case .coalesced(let coalesced):
            updateRequest(event) { $0.coalescedWith = coalesced.leaderID }
        case .served(let served):
            applyServed(served, event)
        case .requestFinished(let finished):
            applyFinished(finished, event)
        case .error(let info):
            lastError = ErrorNote(message: info.message, time: event.time)
            updateRequest(event) { $0.errorMessage = info.message }
        case .stored(let stored):
            entries.store(stored, at: event.time, instance: instance, name: name(of: instance))
            attachStored(stored, instance: instance)
        case .promoted(let ref):
            entries.promote(ref, instance: instance)
        case .evicted(let evicted):
            entries.evict(evicted, instance: instance)
            timeline.addEviction(evicted.reason, at: event.time)
        case .purged(let purged):
            entries.purge(purged, instance: instance)
            // A purge of everything is one event, not one eviction per entry.
            if purged.scope == .all, purged.count > 0 { timeline.addEviction(.purged, count: purged.count, at: event.time) }
            if let origin = purged.origin {
                let what = purged.key ?? purged.scope.match.map { "\(purged.scope.word):\($0)" }
                lastSharedPurge = SharedPurgeNote(origin: origin, key: what, count: purged.count, time: event.time)
            }
        case .storeStats(let stats):
            store = perInstance.isEmpty ? stats : InstanceFigures.total(perInstance)
        case .entries(let snapshot):
            entries.replace(with: snapshot, at: event.time, instance: instance, name: name(of: instance))
        case .command, .dropped:
            break
        }
    }

    /// The name of `instance`, empty while there is one.
    private func name(of instance: UInt16) -> String {
        Int(instance) < instanceNames.count ? instanceNames[Int(instance)] : ""
    }

    /// Names the attached instances (by index), for the rows that arrive from now on.
    public mutating func nameInstances(_ names: [String]) {
        instanceNames = names
        // A fleet keeps each instance's figures from now on (everything so far was the first's).
        if names.count > 1, perInstance.isEmpty { perInstance = [InstanceFigures(counters: counters, store: store)] }
    }

    /// Folds `event` into its instance's figures; the first event of a second instance starts
    /// the breakdown with everything so far as the first instance's.
    private mutating func applyPerInstance(_ event: CacheEvent) {
        if perInstance.isEmpty { perInstance = [InstanceFigures(counters: counters, store: store)] }
        let index = Int(event.instance)
        while perInstance.count <= index { perInstance.append(InstanceFigures()) }
        perInstance[index].lastSeq = event.seq
        if perInstance[index].gone {
            // Its first event since it went away: it is back, and its store counts again.
            perInstance[index].gone = false
            store = InstanceFigures.total(perInstance)
        }
        perInstance[index].counters.apply(event)
        if case .storeStats(let stats) = event.kind { perInstance[index].store = stats }
    }

    private mutating func updateRequest(_ event: CacheEvent, _ change: (inout RequestRecord) -> Void) {
        guard let id = event.requestID, let serial = requests.openSerial(of: id, instance: event.instance) else { return }
        requests.update(serial: serial, change)
    }

    private mutating func applyServed(_ served: Served, _ event: CacheEvent) {
        guard let id = event.requestID, let serial = requests.openSerial(of: id, instance: event.instance) else { return }
        var hitKey: (String, HTTPFields)?
        requests.update(serial: serial) { record in
            record.served = served
            if served.source == .cache, !record.cacheKey.isEmpty { hitKey = (record.cacheKey, record.requestHeaders) }
        }
        if let (key, headers) = hitKey { entries.recordHit(key: key, requestHeaders: headers, at: event.time, instance: event.instance) }
    }

    private mutating func applyNotModified(_ notModified: NotModified, _ event: CacheEvent) {
        guard let id = event.requestID, let serial = requests.openSerial(of: id, instance: event.instance) else { return }
        var freshened: (String, HTTPFields)?
        requests.update(serial: serial) { record in
            record.notModified = notModified
            freshened = (record.cacheKey, record.requestHeaders)
        }
        if let (key, headers) = freshened {
            entries.freshen(key: key, requestHeaders: headers, ttl: notModified.ttl, at: event.time, instance: event.instance)
        }
    }

    private mutating func applyFinished(_ finished: RequestFinished, _ event: CacheEvent) {
        // A background refresh is the cache's own request: it keeps its row, but the app's
        // latency and request rate are not about it.
        if !finished.background {
            latency.record(finished.latency)
            latencyByOutcome.record(finished.latency, outcome: finished.outcome)
            timeline.addRequest(finished.outcome, at: event.time)
        }
        guard let id = event.requestID else { return }
        if let serial = requests.openSerial(of: id, instance: event.instance) {
            requests.update(serial: serial) { record in
                record.finished = finished
                record.finishedAt = event.time
            }
            requests.close(id: id, instance: event.instance)
        } else {
            // Its start came before this dashboard's first event (attached late, or events were
            // dropped): show it anyway, so the rows agree with the counters.
            var record = RequestRecord(id: id, started: event.time - finished.latency, method: "?", url: "(start not seen)",
                                       cacheKey: "", policy: "")
            record.finished = finished
            record.finishedAt = event.time
            record.instance = event.instance
            record.instanceName = name(of: event.instance)
            requests.append(record)
            requests.close(id: id, instance: event.instance)
        }
    }

    /// `stored` events carry no request ID: credit the open request for the same key.
    private mutating func attachStored(_ stored: Stored, instance: UInt16) {
        guard let newest = requests.newestSerial, let oldest = requests.oldestSerial else { return }
        var serial = newest
        // Only a handful of requests are open at once; stop at the first match or after a short scan.
        while serial >= max(oldest, newest - 64) {
            if let record = requests[serial: serial], !record.isFinished, record.instance == instance,
                record.cacheKey == stored.entry.key
            {
                requests.update(serial: serial) { $0.stored = stored }
                return
            }
            serial -= 1
        }
    }
}

/// A purge another instance made through the shared tier, and when it reached this one.
public struct SharedPurgeNote: Sendable, Hashable {
    /// The instance that purged (untrusted text).
    public var origin: String
    /// What it purged: the primary key, or `tag:NAME`, `prefix:URL`, `filter:EXPR` (untrusted
    /// text); `nil` for everything.
    public var key: String?
    /// How many entries this instance dropped.
    public var count: Int
    /// Session seconds.
    public var time: Double
}

/// An error event's message and when it came.
public struct ErrorNote: Sendable, Hashable {
    /// What failed (untrusted text).
    public var message: String
    /// Session seconds.
    public var time: Double
}

/// One attached instance's own figures in a fleet: the same definitions as the totals.
public struct InstanceFigures: Sendable, Hashable {
    /// Its requests, outcomes, ratios and bytes.
    public var counters = TrafficCounters()
    /// Its store's latest usage and capacity, once reported (while ``gone``: the last known).
    public var store: StoreStats?
    /// Whether its connection dropped and no event of it has come since: its ``store`` is left
    /// out of the fleet's total.
    public var gone = false
    /// The `seq` of its latest event folded: a life's end told late must not count an
    /// instance gone that has spoken since.
    public internal(set) var lastSeq: UInt64 = 0

    /// Figures with these values (default: none yet).
    public init(counters: TrafficCounters = TrafficCounters(), store: StoreStats? = nil) {
        self.counters = counters
        self.store = store
    }

    /// The store usage of every instance that is not gone, added up (`nil` until one has
    /// reported). A gone instance's figures are its last known ones, not its store now: they
    /// stay in its own ``store`` but are left out of the total.
    public static func total(_ figures: [InstanceFigures]) -> StoreStats? {
        let reported = figures.filter { !$0.gone }.compactMap(\.store)
        guard let first = reported.first else { return nil }
        return reported.dropFirst().reduce(first, +)
    }
}
