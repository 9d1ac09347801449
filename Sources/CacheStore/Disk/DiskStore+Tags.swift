extension DiskStore {
    /// The storage keys of every row tagged `tag`, per namespace, from the indexes' `tags`
    /// tables (rows committed so far: flush first to include what is queued). A namespace
    /// whose index cannot be read degrades to memory only and is left out.
    func storageKeys(taggedWith tag: String) -> [Int: [StorageKey]] {
        prepare()
        var found: [Int: [StorageKey]] = [:]
        for namespace in storages.indices {
            guard let storage = storages[namespace] else { continue }
            do {
                found[namespace] = try storage.database.storageKeys(taggedWith: storage.naming.tagKey(for: tag))
            } catch {
                fail(namespace, "cannot read the tags of the cache index \(storage.indexPath): \(error)")
            }
        }
        return found
    }
}
