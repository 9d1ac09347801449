import Foundation
import HTTPCaching

extension StoreIndex {
    /// The listing row of one entry.
    func summary(
        info: EntryInfo, namespace: Int, tier: EntryTier, size: Int, created: Date, lastAccess: Date, hits: Int,
        freshUntil: Date?, expiresAt: Date?, now: Date
    ) -> EntrySummary {
        EntrySummary(
            id: info.id, namespace: namespaces[namespace].name, tier: tier, size: size, status: info.status,
            requestTime: info.requestTime, responseTime: info.responseTime, created: created, lastAccess: lastAccess,
            hits: hits, age: info.age(at: now), freshUntil: freshUntil,
            ttlRemaining: freshUntil.map { $0.timeIntervalSince(now) }, expiresAt: expiresAt, eTag: info.eTag,
            lastModified: info.lastModified, tags: info.tags)
    }

    /// Every entry as a listing row, most recently used memory entries first, then disk-only
    /// entries per namespace; plus the disk records whose description must first be loaded
    /// from the index (they are left out of `rows`).
    func listing(now: Date) -> (rows: [EntrySummary], missing: [Int: [StorageKey]]) {
        var rows: [EntrySummary] = []
        rows.reserveCapacity(memory.count + namespaces.reduce(0) { $0 + $1.records.count })
        var missing: [Int: [StorageKey]] = [:]
        memory.forEach { storageKey, item in
            let metadata = item.entry.metadata
            let onDisk = item.onDisk
            rows.append(
                summary(
                    info: info(for: item.entry.stored), namespace: item.namespace, tier: onDisk ? .both : .memory,
                    size: metadata.size, created: metadata.created, lastAccess: metadata.lastAccess,
                    hits: metadata.accessCount, freshUntil: metadata.freshUntil, expiresAt: metadata.expiresAt, now: now))
        }
        for namespace in namespaces.indices {
            namespaces[namespace].records.forEach { storageKey, record in
                guard !memory.contains(storageKey) else { return }
                guard let info = record.info else {
                    missing[namespace, default: []].append(storageKey)
                    return
                }
                rows.append(
                    summary(
                        info: info, namespace: namespace, tier: .disk, size: record.size, created: record.created,
                        lastAccess: record.lastAccess, hits: record.accessCount, freshUntil: record.freshUntil,
                        expiresAt: record.expiresAt, now: now))
            }
        }
        return (rows, missing)
    }

    /// Usage figures.
    func stats() -> StoreStats {
        var both = 0
        memory.forEach { storageKey, item in
            if item.onDisk { both += 1 }
        }
        let diskCount = namespaces.reduce(0) { $0 + $1.records.count }
        return StoreStats(
            memoryUsed: memory.totalCost, memoryCapacity: memoryCapacity, diskUsed: diskUsed, diskCapacity: diskCapacity,
            entryCount: memory.count + diskCount - both, memoryEntryCount: memory.count, diskEntryCount: diskCount,
            degradedNamespaces: namespaces.filter(\.hasFailed).map(\.name))
    }

    /// Problems with the invariants (empty when consistent); for tests and the crash check.
    func invariantViolations() -> [String] {
        var problems: [String] = []
        var listed = Set<StorageKey>()
        for (key, variants) in keys {
            for storageKey in variants {
                listed.insert(storageKey)
                let inMemory = memory.contains(storageKey)
                let onDisk = namespaces.contains { $0.records.contains(storageKey) }
                if !inMemory && !onDisk { problems.append("\(key) lists \(storageKey) which is in no tier") }
            }
        }
        memory.forEach { storageKey, item in
            if !listed.contains(storageKey) { problems.append("memory item \(item.entry.id) is not listed under its key") }
            if item.onDisk != namespaces[item.namespace].records.contains(storageKey) {
                problems.append("memory item \(item.entry.id) marked onDisk \(item.onDisk) but the disk index disagrees")
            }
        }
        for namespace in namespaces {
            var unresolved = Set<StorageKey>()
            for variants in namespace.unresolved.values { variants.forEachKey { unresolved.insert($0) } }
            namespace.records.forEach { storageKey, record in
                let isListed = listed.contains(storageKey)
                let isUnresolved = unresolved.contains(storageKey)
                if isListed == isUnresolved {
                    problems.append("disk record \(storageKey) in \(namespace.name) listed \(isListed), unresolved \(isUnresolved)")
                }
                if isListed != (record.key != nil) { problems.append("disk record \(storageKey) key does not match listing") }
            }
        }
        if memory.totalCost > memoryCapacity { problems.append("memory \(memory.totalCost) over capacity \(memoryCapacity)") }
        if diskUsed > diskCapacity { problems.append("disk \(diskUsed) over capacity \(diskCapacity)") }
        return problems
    }
}
