import CacheEvents
import CacheStore
import Foundation
import HTTPCaching
import HTTPTypes
import SharedTier
import TrafficFilter

extension CachingClient {
    /// What the shared tier reports, turned into events: an outage's one warning (`error`),
    /// and a purge from another instance carried out here (`purged` with its origin).
    static func sharedTierObserver(store: ResponseStore, events: EventBus, statsPublisher: StoreStatsPublisher) -> SharedTier.Observer {
        SharedTier.Observer(
            warning: { message in events.publish(.error(ErrorInfo(message: message))) },
            recovered: {},
            purge: { purge in
                let scope: PurgeScope
                switch purge.scope {
                case .key(let key): scope = .key(key)
                case .tag(let tag): scope = .tag(tag)
                case .prefix(let prefix): scope = .prefix(prefix)
                case .filter(let filter): scope = .filter(filter)
                case .all: scope = .all
                }
                await purgeLocally(scope, store: store, events: events, origin: purge.origin)
                statsPublisher.publishNow()
            })
    }

    /// The stored entries `filter` takes; `nil` when it gave up a pattern on one of them
    /// (``Filter/gaveUp``): it cannot tell which to take then — under `!` the undecided ones
    /// would be taken — so a purge by it removes nothing.
    static func entries(matching filter: Filter, in store: ResponseStore) async -> [EntryID]? {
        let matching = await store.entries().filter { filter.matches($0) }
        return filter.gaveUp ? nil : matching.map(\.id)
    }

    /// Removes this instance's copies (memory and disk) that a purge covers and publishes
    /// `purged` (with `origin` when another instance asked); returns how many entries it
    /// removed. A tag purge uses the store's tag index; a prefix or filter purge lists the
    /// entries and removes those that match (a filter this version cannot parse removes
    /// nothing and is reported as an `error`). `taken`: the entries a filter purge takes, when
    /// the caller has worked them out already.
    @discardableResult
    static func purgeLocally(
        _ scope: PurgeScope, store: ResponseStore, events: EventBus, origin: String? = nil, taken: [EntryID]? = nil
    ) async -> Int {
        let count: Int
        switch scope {
        case .key(let key):
            count = store.removeCachedResponse(for: key)
        case .tag(let tag):
            count = await store.removeTagged(tag)
        case .prefix(let prefix):
            let matching = await store.entries().filter { $0.uri.hasPrefix(prefix) }
            count = store.removeEntries(matching.map(\.id), as: scope)
        case .filter(let text):
            let matching: [EntryID]
            if let taken {
                matching = taken
            } else {
                guard let filter = try? Filter(text) else {
                    events.publish(.error(ErrorInfo(message: "a purge by filter from \(origin ?? "this instance") cannot be read here: \(text)")))
                    return 0
                }
                guard let found = await entries(matching: filter, in: store) else {
                    events.publish(.error(ErrorInfo(message: "a purge by filter from \(origin ?? "this instance") removed nothing here: \(filter.gaveUpMessage)")))
                    return 0
                }
                matching = found
            }
            count = store.removeEntries(matching, as: scope)
        default:
            count = store.removeAllCachedResponses()
        }
        events.publish(.purged(Purged(scope: scope, count: count, origin: origin)))
        return count
    }

    /// On a local miss: the variants the shared tier holds for `key`, copied into the local
    /// tiers (as a disk hit is copied into memory) and returned as the store now holds them;
    /// empty on a shared miss, and when the tier is unavailable.
    ///
    /// A copy is a store like any other: the `willCache` hook decides where it may go, asked
    /// with `request` and the row's response. A variant it refuses (a read-only proxy refuses
    /// them all), or that the local tiers do not take (a body larger than they keep), is
    /// still served, from the row, without being kept. Each copy is fresh until this client's
    /// own rules say (a private instance reads `max-age` where the row, written for shared
    /// caches, counts `s-maxage`).
    ///
    /// `alongside`: variants held here already, none of which the request's `Vary` selects.
    /// The tier's copies never replace them (this instance's may be newer), and the answer is
    /// these with the tier's others — unchanged when the tier has no other.
    func variantsFromSharedTier(
        _ key: CacheKey, _ sharedTier: SharedTier, request: HTTPRequest, now: Date, alongside held: [CacheEntry] = []
    ) async -> [CacheEntry] {
        let found = await sharedTier.variants(for: key)
        let heldIDs = Set(held.map(\.id))
        var copied = false
        var unkept: [CacheEntry] = []
        for entry in found where !(entry.expiresAt.map { $0 <= now } ?? false) && !heldIDs.contains(EntryID(entry.stored)) {
            let policy = await storagePolicy(for: request, response: entry.stored.response)
            let responseTime = entry.stored.responseTime
            let freshUntil = responseTime.addingTimeInterval(rules.freshness(of: entry.stored, now: responseTime).timeToLive)
            if store.storeCachedResponse(entry.stored, body: entry.body, freshUntil: freshUntil, expiresAt: entry.expiresAt, policy: policy) != nil {
                copied = true
            } else {
                unkept.append(
                    store.unkeptEntry(entry.stored, body: entry.body, created: entry.created, freshUntil: freshUntil, expiresAt: entry.expiresAt))
            }
        }
        guard copied else { return held + unkept }
        if let inMemory = store.memoryVariants(for: key, now: now) { return inMemory + unkept }
        return await store.variants(for: key, now: now) + unkept
    }

    /// Waits until every response written to the shared tier so far has reached it (or
    /// given up): for tests, and before a planned stop (``shutdown()`` does it too).
    package func finishSharedTierWrites() async {
        await sharedTier?.finishWrites()
    }
}
