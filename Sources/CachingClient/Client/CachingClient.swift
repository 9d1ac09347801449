public import CacheEvents
public import CacheStore
import Foundation
import HTTPCaching
import HTTPTypes
import SharedTier
import Synchronization

/// An HTTP client with an RFC 9111 cache in front of the network, observable through events.
///
/// Fresh hits never touch the network; stale responses are revalidated with `If-None-Match`
/// / `If-Modified-Since`; concurrent requests for the same resource share one origin fetch;
/// every decision is published on ``events`` with its reason.
///
/// ```swift
/// let client = try await CachingClient()
/// let result = try await client.data(for: HTTPRequest(method: .get, scheme: "https",
///                                                     authority: "example.com", path: "/"))
/// print(result.outcome, result.reason)      // miss not in cache
/// try await client.shutdown()
/// ```
public final class CachingClient: Sendable {
    /// The configuration the client was made with.
    public let configuration: CachingClientConfiguration
    /// The event stream: subscribe to watch every request and store change.
    public let events: EventBus
    /// The response store (memory and disk tiers).
    public let store: ResponseStore
    let rules: CacheRules
    /// The rules of a shared cache, for what the shared tier may hold: rows any instance may
    /// read — a `cachescope proxy` serving many users among them.
    let sharedTierRules: CacheRules
    let transport: any Transport
    let coalescer = RequestCoalescer<NetworkResult>()
    let backgroundRevalidations = Mutex<Set<String>>([])
    let state = Mutex(ClientState())
    let statsPublisher: StoreStatsPublisher
    /// The bytes of streamed responses being collected to store, bounded (``CollectingBudget``).
    let collecting = CollectingBudget()
    /// The shared tier on PostgreSQL, when one is configured.
    let sharedTier: SharedTier?
    /// What went wrong as the store opened (a disk tier that could not be used, an index
    /// reset), as `error` events: published before anyone could subscribe, so every
    /// subscription's snapshot starts with them (``snapshotEvents()``).
    let openingProblems: [CacheEventKind]

    struct ClientState {
        var isShutDown = false
        var backgroundTasks: [UInt64: Task<Void, Never>] = [:]
    }

    /// Opens the store, connects the shared tier when one is configured, and prepares the transport.
    /// - Throws: ``CacheStoreError`` when the store's directory or key cannot be used;
    ///   ``SharedTierError`` when the shared tier's URL or settings are wrong or its server
    ///   cannot be reached.
    public init(configuration: CachingClientConfiguration = CachingClientConfiguration()) async throws {
        self.configuration = configuration
        let bus = EventBus(now: configuration.now)  // one clock for rules, store and events
        events = bus
        rules = configuration.rules
        sharedTierRules = configuration.rules(mode: .shared)
        var storeConfiguration = configuration.store
        storeConfiguration.currentDate = configuration.now  // one clock for rules and store
        let statsPublisher = StoreStatsPublisher(bus: bus, interval: configuration.statsInterval)
        self.statsPublisher = statsPublisher
        let opening = OpeningProblems()
        let store = try ResponseStore(configuration: storeConfiguration) { change in
            if let kind = StoreChangeEvents.kind(for: change) {
                bus.publish(kind)
                opening.note(kind)
            }
            statsPublisher.storeChanged()
        }
        self.store = store
        openingProblems = opening.close()
        statsPublisher.attach { store.stats() }
        if let shared = configuration.sharedTier {
            do {
                sharedTier = try await SharedTier.connect(
                    shared, store: storeConfiguration, logger: storeConfiguration.logger,
                    observer: Self.sharedTierObserver(store: store, events: bus, statsPublisher: statsPublisher))
            } catch {
                await statsPublisher.stop()
                await store.close()
                throw error
            }
        } else {
            sharedTier = nil
        }
        transport = configuration.transport
            ?? AsyncHTTPClientTransport(connectionsPerOrigin: configuration.connectionsPerOrigin, readTimeout: configuration.requestTimeout)
    }

    /// Subscribes to the event stream. With `snapshot`, the subscription starts with the
    /// store's statistics and entries, so a late watcher sees what is already stored.
    ///
    /// Iterate it for events one at a time, or its ``EventSubscription/batches`` for bursts
    /// (what a dashboard wants: it applies a burst under one lock and redraws once). Delivery
    /// is event-driven and never slows a request: the delivery's buffer size bounds what may
    /// wait, past it a `dropped` event tells how many were lost. The subscription ends when the
    /// watcher's task is cancelled, it calls ``EventSubscription/finish()``, or it lets go of
    /// the sequence.
    public func subscribe(_ delivery: EventDelivery = .dashboard, snapshot: Bool = true) async -> EventSubscription {
        let initial = snapshot ? await snapshotEvents() : []
        return events.subscribe(delivery, initial: initial)
    }

    /// The store's statistics and entries as events, after what went wrong as it opened (a
    /// disk tier not in use: an `error` event each, still true of the store).
    public func snapshotEvents() async -> [CacheEventKind] {
        let now = configuration.now()
        let entries = await store.entries(now: now).map { StoreChangeEvents.entryInfo($0, now: now) }
        return openingProblems + [.storeStats(store.stats()), .entries(EntriesSnapshot(entries: entries))]
    }

    /// Stops background work, finishes the shared tier's writes and disconnects it, closes
    /// the store (flushing pending disk writes) and the transport. A second call (or one made
    /// while the first runs) returns at once: the first does the work.
    public func shutdown() async throws {
        let background = state.withLock { state -> [Task<Void, Never>]? in
            guard !state.isShutDown else { return nil }
            state.isShutDown = true
            defer { state.backgroundTasks.removeAll() }
            return Array(state.backgroundTasks.values)
        }
        guard let tasks = background else { return }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        await sharedTier?.shutdown()
        await statsPublisher.stop()
        await store.close()
        try await transport.shutdown()
        events.finish()
    }

    /// Publishes `storeStats` now (after a command changed the store).
    func publishStats() {
        statsPublisher.publishNow()
    }

    var isShutDown: Bool { state.withLock { $0.isShutDown } }
}

/// The `error` events a store reports while it opens, gathered until the client is made.
private final class OpeningProblems: Sendable {
    private let problems = Mutex<[CacheEventKind]?>([])

    func note(_ kind: CacheEventKind) {
        guard case .error = kind else { return }
        problems.withLock { $0?.append(kind) }
    }

    /// Those noted so far; later ones are not gathered.
    func close() -> [CacheEventKind] {
        problems.withLock { problems in
            defer { problems = nil }
            return problems ?? []
        }
    }
}
