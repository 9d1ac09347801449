import Foundation
import Logging

extension ResponseStore {
    /// What opening the namespaces produced: their index parts, their storages (for the
    /// disk actor) and the changes to report.
    struct OpenedNamespaces {
        var indexes: [NamespaceIndex] = []
        var storages: [NamespaceStorage?] = []
        var changes: [StoreChange] = []
    }

    /// Opens every namespace's directory (when a directory is configured) and builds its
    /// part of the index from the loaded rows, in access order.
    static func openNamespaces(configuration: StoreConfiguration, table: NamespaceTable) throws(CacheStoreError) -> OpenedNamespaces {
        var opened = OpenedNamespaces()
        let fileSystem: any StoreFileSystem =
            switch configuration.diskMedium {
            case .files: configuration.fileSystem
            case .simulated: SimulatedEntryFiles(base: configuration.fileSystem)
            }
        for member in table.members {
            let namespace = member.namespace
            guard let directory = configuration.directory else {
                opened.indexes.append(NamespaceIndex(name: namespace.name, limit: namespace.diskLimit, hasDisk: false))
                opened.storages.append(nil)
                continue
            }
            var index = NamespaceIndex(name: namespace.name, limit: namespace.diskLimit, hasDisk: true)
            do {
                let (storage, rows, reset) = try NamespaceStorage.open(
                    namespace: namespace, in: directory.path, keys: member.keys, fileSystem: fileSystem)
                if let reset {
                    // Also logged: a command without a dashboard (`get`) shows warnings only.
                    configuration.logger.warning("cache index reset", metadata: ["namespace": "\(namespace.name)", "reason": "\(reset)"])
                    opened.changes.append(.indexReset(reset))
                }
                load(rows, into: &index)
                opened.storages.append(storage)
            } catch {
                switch error {
                case .configuration(let error):
                    throw error
                case .disk(let message):
                    configuration.logger.error(
                        "cache namespace is memory-only", metadata: ["namespace": "\(namespace.name)", "error": "\(message)"])
                    index.isAvailable = false
                    index.hasFailed = true
                    opened.changes.append(.diskFailure(message))
                    opened.storages.append(nil)
                }
            }
            opened.indexes.append(index)
        }
        return opened
    }

    /// Fills a namespace index from its rows, least recently used first, so the list ends in
    /// the recorded access order; every record unresolved (only its primary digest known).
    private static func load(_ rows: [IndexDatabase.Row], into index: inout NamespaceIndex) {
        index.records.reserveCapacity(rows.count)
        index.unresolved.reserveCapacity(rows.count)
        for position in accessOrder(rows) {
            let row = rows[position]
            let record = DiskRecord(
                primary: row.primary, key: nil, size: row.size, created: row.created, lastAccess: row.lastAccess,
                accessCount: row.accessCount, freshUntil: row.freshUntil, expiresAt: row.expiresAt, body: row.body, info: nil,
                generation: 0, isWritten: true, accessDirty: false)
            index.records.insert(record, for: row.storageKey, cost: EntryFootprint.disk(size: row.size))
            // One hash lookup for the usual primary key with a single variant.
            if var variants = index.unresolved.updateValue(VariantKeys(row.storageKey), forKey: row.primary) {
                variants.insert(row.storageKey)
                index.unresolved[row.primary] = variants
            }
        }
    }

    /// Row positions, least recently used first. Sorts plain integers — the access time in
    /// milliseconds above the position — which measured several times faster than sorting
    /// the rows, sorting positions with a comparator, or SQLite's `ORDER BY`. Ties keep index
    /// order; millisecond resolution is plenty for LRU.
    static func accessOrder(_ rows: [IndexDatabase.Row]) -> [Int] {
        let positionBits = 24
        guard rows.count < 1 << positionBits else {
            return rows.indices.sorted { rows[$0].lastAccess < rows[$1].lastAccess }
        }
        var keys = rows.enumerated().map { position, row in
            let milliseconds = UInt64(max(0, min(row.lastAccess.timeIntervalSinceReferenceDate * 1000, 0x0FFF_FFFF_FFFF)))
            return milliseconds << UInt64(positionBits) | UInt64(position)
        }
        keys.sort()
        return keys.map { Int($0 & (1 << UInt64(positionBits) - 1)) }
    }
}
