
import HTTPCaching

extension ResponseStore {
    /// Removes every entry tagged `tag` (``StoreConfiguration/tagField``, ``SurrogateKeys``)
    /// from both tiers and returns how many it removed: the memory copies whose response
    /// carries the tag, and the disk entries the index's `tags` table lists for it (after the
    /// queued writes are committed, so an entry stored just before is found). Reported per
    /// entry as `evicted(purge)`, then as one `purged(.tag)`.
    ///
    /// Entries written by a version before tags have no rows in `tags`: a tag purge does not
    /// find their disk copies (docs/store.md).
    @discardableResult
    public func removeTagged(_ tag: String) async -> Int {
        await disk?.flush()
        let onDisk = await disk?.storageKeys(taggedWith: tag) ?? [:]
        return core.withIndex { $0.removeTagged(tag, diskKeys: onDisk) }
    }

    /// Removes the given variants from both tiers and reports them as one purge of `scope`
    /// (each entry as `evicted(purge)`); returns how many were still stored. What a purge by
    /// URL prefix or by filter removes once the caller has chosen the entries from
    /// ``entries(now:)``.
    @discardableResult
    public func removeEntries(_ ids: [EntryID], as scope: PurgeScope) -> Int {
        let targets = ids.map { id in
            let namespace = table.index(for: id.key.uri)
            let naming = table[namespace].naming
            return (id: id, storageKey: naming.storageKey(for: id), namespace: namespace, primary: naming.primaryKey(for: id.key))
        }
        return core.withIndex { $0.removeEntries(targets, scope: scope) }
    }
}
