import Foundation

extension StoreIndex {
    /// Evicts least recently used memory copies until memory fits its capacity. Each step is
    /// O(1): the victim is the tail of the access list.
    mutating func evictMemoryIfNeeded() {
        while memory.totalCost > memoryCapacity, let victim = memory.leastRecent {
            removeFromMemory(victim.key, reason: .capacity)
        }
    }

    /// Evicts least recently used disk copies until every namespace fits its own limit and
    /// all together fit the disk capacity. For the shared capacity the victim is the oldest
    /// of the namespaces' list tails (by the store's recorded access time): O(namespaces)
    /// per step, independent of the number of entries.
    mutating func evictDiskIfNeeded() {
        for namespace in namespaces.indices {
            guard let limit = namespaces[namespace].limit else { continue }
            while namespaces[namespace].records.totalCost > limit, let victim = namespaces[namespace].records.leastRecent {
                removeFromDisk(victim.key, namespace: namespace, reason: .capacity)
            }
        }
        var used = diskUsed
        while used > diskCapacity {
            var oldest: (namespace: Int, key: StorageKey, lastAccess: Date)?
            for namespace in namespaces.indices {
                guard let tail = namespaces[namespace].records.leastRecent else { continue }
                if oldest == nil || tail.value.lastAccess < oldest!.lastAccess {
                    oldest = (namespace, tail.key, tail.value.lastAccess)
                }
            }
            guard let oldest else { break }
            used -= namespaces[oldest.namespace].records.cost(of: oldest.key) ?? 0
            removeFromDisk(oldest.key, namespace: oldest.namespace, reason: .capacity)
        }
    }

    /// Sets the memory capacity and evicts at once.
    mutating func setMemoryCapacity(_ capacity: Int) {
        memoryCapacity = max(0, capacity)
        evictMemoryIfNeeded()
    }

    /// Sets the disk capacity and evicts at once.
    mutating func setDiskCapacity(_ capacity: Int) {
        diskCapacity = max(0, capacity)
        evictDiskIfNeeded()
    }
}
