public import HTTPCaching
public import HTTPTypes

extension ResponseStore {
    /// The largest body the store would keep for `response` stored under `key` with policy
    /// `.allowed`: the larger of the memory tier's and the key's namespace's disk tier's
    /// per-entry limit (``StoreConfiguration/maximumEntryShare`` of its capacity), less what
    /// the response's URI, status line and header fields count (``CacheEntry/size(of:body:)``).
    ///
    /// A client that receives a body as it arrives asks this before collecting it: a longer
    /// body would be refused by ``storeCachedResponse(_:body:freshUntil:expiresAt:policy:)``,
    /// so there is no point in holding it whole. 0 when not even the header fields fit.
    public func maximumBodySize(for key: CacheKey, response: HTTPResponse) -> Int {
        let namespace = table.index(for: key.uri)
        let hasDisk = readers[namespace] != nil
        // The store's own tests (`StoreIndex.store`): within each tier's share, and a footprint
        // that fits the whole tier.
        let fields = response.headerFields.count
        let entryLimit = core.read { index in
            let memoryFit = index.memoryCapacity - EntryFootprint.memoryPerEntry - EntryFootprint.memoryPerField * fields
            let memory = min(index.memoryEntryLimit, memoryFit)
            // The largest size whose footprint (`EntryFootprint.disk`) fits the tier.
            let diskFit = (index.diskCapacity(namespace: namespace) / EntryFootprint.diskBlock - 1) * EntryFootprint.diskBlock
                - EntryFootprint.fileFraming
            let disk = hasDisk && index.namespaces[namespace].isAvailable ? min(index.diskEntryLimit(namespace: namespace), diskFit) : 0
            return max(memory, disk)
        }
        return max(0, entryLimit - CacheEntry.headerSize(key: key, response: response))
    }
}
