import HTTPCaching
import HTTPTypes

extension StoreIndex {
    /// The tags `stored` carries in the configured tag field.
    func tags(of stored: StoredResponse) -> [String] {
        guard let tagField else { return [] }
        return SurrogateKeys.tags(in: stored.response.headerFields, fieldName: tagField)
    }

    /// Removes every entry tagged `tag` from both tiers: the memory copies whose response
    /// carries it, and the disk records `diskKeys` names (found in the indexes' `tags`
    /// tables); reports each as `evicted(purge)` and the whole as `purged(.tag)`. Returns how
    /// many entries it removed.
    mutating func removeTagged(_ tag: String, diskKeys: [Int: [StorageKey]]) -> Int {
        var victims: [(storageKey: StorageKey, namespace: Int)] = []
        var seen = Set<StorageKey>()
        memory.forEach { storageKey, item in
            guard tags(of: item.entry.stored).contains(tag) else { return }
            victims.append((storageKey, item.namespace))
            seen.insert(storageKey)
        }
        for (namespace, keys) in diskKeys where namespace < namespaces.count {
            for storageKey in keys where namespaces[namespace].records.contains(storageKey) && seen.insert(storageKey).inserted {
                victims.append((storageKey, namespace))
            }
        }
        for victim in victims { remove(victim.storageKey, namespace: victim.namespace, reason: .purged) }
        changes.append(.purged(.tag(tag)))
        return victims.count
    }

    /// Removes the given variants from both tiers (each reported as `evicted(purge)`) and
    /// reports the whole as one `purged(scope)`; returns how many were stored.
    mutating func removeEntries(_ targets: [(id: EntryID, storageKey: StorageKey, namespace: Int, primary: StorageKey)], scope: PurgeScope) -> Int {
        var count = 0
        for target in targets {
            resolve(target.id.key, namespace: target.namespace, primary: target.primary)
            guard memory.contains(target.storageKey) || namespaces[target.namespace].records.contains(target.storageKey) else { continue }
            remove(target.storageKey, namespace: target.namespace, reason: .purged)
            count += 1
        }
        changes.append(.purged(scope))
        return count
    }
}
