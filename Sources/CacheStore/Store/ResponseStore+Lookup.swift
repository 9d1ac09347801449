public import Foundation
public import HTTPCaching
import Logging
public import HTTPTypes

extension ResponseStore {
    /// Every stored variant of a primary key (none on a miss), so the client can run
    /// `CacheRules.decide` over them, report a Vary mismatch and send every ETag.
    ///
    /// Reads memory first; only variants that are not in memory are read from disk (and
    /// promoted). When every variant is in memory no disk I/O happens and the call does not
    /// suspend. Disk reads happen on the caller's thread (a 10 KB entry takes tens of
    /// microseconds); only entries whose write is still queued wait for the disk actor. Entries whose retention ended are removed (reported `evicted(expired)`), and
    /// corrupt files are removed (reported `evicted(corrupt)`) — neither is returned.
    ///
    /// A lookup is not an access: call ``recordAccess(_:now:)`` for the entry actually served.
    ///
    /// `now`: the time of the lookup on the store's clock, for a caller that has just read it
    /// (a request reads the clock once when it starts); `nil` reads the clock.
    nonisolated(nonsending) public func variants(for key: CacheKey, now: Date? = nil) async -> [CacheEntry] {
        let namespace = table.index(for: key.uri)
        let now = now ?? core.now()
        let plan = lookupPlan(for: key, namespace: namespace, now: now)
        switch plan {
        case .answered(let entries):
            return entries
        case .needsPrimaryKey:
            return []
        case .readDisk(let inMemory, let reads):
            guard let disk else { return inMemory }
            var outcomes: [ReadOutcome] = []
            var viaActor: [DiskRead] = []
            if let reader = readers[namespace], reads.allSatisfy(\.isWritten) {
                for result in reader.read(reads, key: key) {
                    switch result {
                    case .outcome(let outcome): outcomes.append(outcome)
                    case .retryOnActor(let read): viaActor.append(read)
                    }
                }
            } else {
                viaActor = reads
            }
            if !viaActor.isEmpty { outcomes += await disk.read(namespace: namespace, reads: viaActor, key: key) }
            let fromDisk = core.withIndex { $0.applyReads(outcomes, key: key, namespace: namespace, now: now) }
            // Said once the index has confirmed it (not for a file its record no longer names).
            for (storageKey, reason) in fromDisk.corrupt {
                disk.logger.warning("corrupt cache entry", metadata: ["key": "\(key)", "storage key": "\(storageKey)", "reason": "\(reason)"])
            }
            return inMemory + fromDisk.entries
        }
    }

    /// The variants of a key when memory alone can answer (every variant in memory, or
    /// certainly none stored — the in-memory index of the disk tier knows); `nil` when a
    /// file must be read — then call ``variants(for:now:)``. Never does I/O. `now`: as for
    /// ``variants(for:now:)``.
    public func memoryVariants(for key: CacheKey, now: Date? = nil) -> [CacheEntry]? {
        let namespace = table.index(for: key.uri)
        let now = now ?? core.now()
        let plan = lookupPlan(for: key, namespace: namespace, now: now)
        switch plan {
        case .answered(let entries): return entries
        case .needsPrimaryKey, .readDisk: return nil
        }
    }

    /// The stored response for a request, URLCache style: the variant whose Vary fields
    /// match the request (`CacheRules.select`: the most recent among matches), counted as
    /// an access. `nil` when the request has no cache key or nothing matches. Freshness is
    /// not checked here; that is the caching rules' job.
    nonisolated(nonsending) public func cachedResponse(for request: HTTPRequest) async -> CacheEntry? {
        guard let key = CacheKey(request) else { return nil }
        let candidates = await variants(for: key)
        guard !candidates.isEmpty, let chosen = CacheRules().select(from: candidates.map(\.stored), for: request.headerFields).index
        else { return nil }
        recordAccess(candidates[chosen])
        var entry = candidates[chosen]
        entry.metadata.accessCount += 1
        entry.metadata.lastAccess = core.now()
        return entry
    }

    /// Counts an entry as served: its hit count and last access time go up in both tiers and
    /// it becomes the most recently used (the LRU order of both tiers follows these times).
    /// Disk access times are written in the next batch or sweep; a crash may lose the latest.
    ///
    /// `now`: the time of the access on the store's clock, for a caller that has just read it;
    /// `nil` reads the clock.
    public func recordAccess(_ entry: CacheEntry, now: Date? = nil) {
        let namespace = table.index(for: entry.stored.key.uri)
        let now = now ?? core.now()
        core.withIndex { $0.recordAccess(entry.storageKey, slot: entry.memorySlot, namespace: namespace, now: now) }
    }

    /// What answering a lookup of `key` takes: the in-memory index's plan, asked again with
    /// the primary key's digest when it needs one (only namespaces with a disk do).
    private func lookupPlan(for key: CacheKey, namespace: Int, now: Date) -> LookupPlan {
        let plan = core.withIndex { $0.plan(for: key, namespace: namespace, now: now) }
        guard case .needsPrimaryKey = plan else { return plan }
        let primary = table[namespace].naming.primaryKey(for: key)
        return core.withIndex { $0.plan(for: key, namespace: namespace, primary: primary, now: now) }
    }
}
