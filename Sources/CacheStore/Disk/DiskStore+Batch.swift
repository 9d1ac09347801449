import Foundation
import Logging

extension DiskStore {
    /// One namespace's share of a batch, reduced to the final state per entry: the last
    /// command for an entry wins, and `deleteAll` discards what came before it.
    struct NamespaceBatch {
        struct Write {
            let entry: CacheEntry
            let primary: StorageKey
            let info: EntryInfo
            let generation: UInt64
            let body: BodyID
            /// Whether this batch writes the body file (false for a freshen of a stored body).
            let writesBody: Bool
        }

        var clearAll = false
        var writes: [StorageKey: Write] = [:]
        var deletes: [StorageKey: EvictionReason?] = [:]
        /// Body files that stop being named once the batch commits (replaced or deleted
        /// versions); unlinked after the commit unless the final write names them.
        var staleBodies: [StorageKey: Set<BodyID>] = [:]
        var accesses: [(key: StorageKey, lastAccess: Date, accessCount: Int)] = []

        var isEmpty: Bool { !clearAll && writes.isEmpty && deletes.isEmpty && accesses.isEmpty }

        mutating func add(_ command: DiskCommand) {
            switch command {
            case .write(_, let entry, let primary, let info, let generation, let body):
                let key = entry.storageKey
                // A freshen of a body whose write is in this same batch still writes it.
                let writesBody = !body.isStored || writes[key].map { $0.body == body.id && $0.writesBody } == true
                writes[key] = Write(
                    entry: entry, primary: primary, info: info, generation: generation, body: body.id, writesBody: writesBody)
                deletes[key] = nil
                if let replaced = body.replaced { staleBodies[key, default: []].insert(replaced) }
            case .delete(_, let key, let body, let report):
                writes[key] = nil
                if let body { staleBodies[key, default: []].insert(body) }
                // Keep a reason already asked for; `.some(nil)` means "delete, no report".
                if let report {
                    deletes[key] = .some(report)
                } else if deletes[key] == nil {
                    deletes[key] = .some(nil)
                }
            case .deleteAll:
                clearAll = true
                writes = [:]
                deletes = [:]
                staleBodies = [:]
            }
        }
    }

    /// Takes everything queued and carries it out, one namespace at a time.
    func processPending() {
        let (commands, accesses, skippedWrites) = core.withIndex { $0.takeBatch() }
        if skippedWrites > 0 {
            logger.warning(
                "the disk fell behind: responses kept in memory only instead of queued for it",
                metadata: ["responses": "\(skippedWrites)", "queued": "\(commands.count) commands"])
        }
        var batches = Array(repeating: NamespaceBatch(), count: storages.count)
        for command in commands where command.namespace < batches.count { batches[command.namespace].add(command) }
        for namespace in batches.indices {
            batches[namespace].accesses = accesses[namespace]
            guard !batches[namespace].isEmpty, let storage = storages[namespace] else { continue }
            apply(batches[namespace], to: storage, namespace: namespace)
        }
    }

    /// Batches with at least this many new files are made durable with one `syncfs` instead
    /// of one `fsync` per file (measured: about 6 to 30 times cheaper per file).
    static let syncWholeFileSystemFrom = 4

    /// Carries out one namespace's batch so a crash at any instant leaves a state the next
    /// open accepts:
    /// 1. each new file — body files (never overwritten: each has a new id) and metadata
    ///    files — is written to `tmp/` and made durable (its own `fsync`, or one `syncfs` for
    ///    a larger batch); then the bodies are renamed into `entries/`, then the metadata
    ///    files (each rename is the moment its entry switches, as a whole, to the new
    ///    version), then `entries/` is fsynced. A crash here leaves files no row names, or a
    ///    metadata file newer than its row: the next open removes the first and reads the
    ///    second as the entry it is;
    /// 2. one SQLite transaction writes, deletes and touches the rows (all or nothing);
    /// 3. files no longer named — those of deleted rows, and replaced bodies — are unlinked
    ///    (a crash before leaves orphans: removed at open).
    private func apply(_ batch: NamespaceBatch, to storage: NamespaceStorage, namespace: Int) {
        let fileSystem = storage.fileSystem
        var rows: [IndexDatabase.RowWrite] = []
        var written: [(key: StorageKey, generation: UInt64)] = []
        rows.reserveCapacity(batch.writes.count)
        do {
            // 1. Files: written, made durable, renamed into place (bodies before metadata).
            var files = try pendingFiles(batch, storage: storage)
            defer { for file in files { try? fileSystem.removeIfPresent(file.temporary) } }
            let syncEach = files.count < Self.syncWholeFileSystemFrom
            for file in files { try fileSystem.writeFile(file.temporary, contents: file.contents, sync: syncEach) }
            if !syncEach, !(try fileSystem.syncFileSystem(containing: storage.temporaryDirectory)) {
                // No syncfs here: sync file by file (rewriting is simpler than reopening).
                for file in files {
                    try fileSystem.removeIfPresent(file.temporary)
                    try fileSystem.writeFile(file.temporary, contents: file.contents, sync: true)
                }
            }
            for file in files { try fileSystem.rename(file.temporary, to: file.destination) }
            files = []
            for (key, write) in batch.writes {
                let current = core.read { $0.namespaces[namespace].records.peek(key) }
                let metadata = write.entry.metadata
                rows.append(
                    IndexDatabase.RowWrite(
                        storageKey: key, primary: write.primary, size: metadata.size, created: metadata.created,
                        lastAccess: current?.lastAccess ?? metadata.lastAccess,
                        accessCount: current?.accessCount ?? metadata.accessCount, freshUntil: metadata.freshUntil,
                        expiresAt: metadata.expiresAt, body: write.body, info: try storage.sealer.seal(write.info.encoded(), for: key),
                        tags: write.info.tags.map(storage.naming.tagKey(for:))))
                written.append((key, write.generation))
            }
            if !batch.writes.isEmpty { try fileSystem.syncDirectory(storage.entriesDirectory) }

            // 2. Rows, reading first the identities the index did not know, for the reports.
            let reported = batch.deletes.compactMap { key, reason in reason.map { (key, $0) } }
            let reportRows = reported.isEmpty ? [:] : try storage.database.infos(for: reported.map(\.0))
            try storage.database.apply(
                clearAll: batch.clearAll, writes: rows, deletes: Array(batch.deletes.keys), accesses: batch.accesses)

            // 3. Files no row names any more.
            for key in batch.deletes.keys { try fileSystem.removeIfPresent(storage.entryPath(key)) }
            for (key, bodies) in batch.staleBodies {
                for body in bodies where batch.writes[key]?.body != body {
                    try fileSystem.removeIfPresent(storage.bodyPath(key, body))
                }
            }
            if batch.clearAll { try removeAllBut(batch.writes, storage: storage) }

            if !written.isEmpty { core.withIndex { $0.markWritten(written, namespace: namespace) } }
            var changes: [StoreChange] = []
            for (key, reason) in reported {
                guard let row = reportRows[key], let info = decodeInfo(row.info, key: key, storage: storage) else { continue }
                changes.append(.evicted(Eviction(id: info.id, reason: reason, removedFrom: .disk, remaining: nil, size: row.size)))
            }
            if !changes.isEmpty { core.report(changes) }
        } catch {
            fail(namespace, "\(error)")
        }
    }

    /// A file a batch writes: its bytes, where they are written first, and where they go.
    private struct PendingFile {
        let contents: [UInt8]
        let temporary: String
        let destination: String
    }

    /// The batch's files, bodies first (a metadata file must never be renamed into place
    /// before the body it names).
    private func pendingFiles(_ batch: NamespaceBatch, storage: NamespaceStorage) throws(EntryFileError) -> [PendingFile] {
        var bodies: [PendingFile] = []
        var metadata: [PendingFile] = []
        metadata.reserveCapacity(batch.writes.count)
        for (key, write) in batch.writes {
            if write.writesBody {
                bodies.append(
                    PendingFile(
                        contents: try storage.codec.encodeBody(write.entry.body, storageKey: key, id: write.body),
                        temporary: storage.temporaryPath(key), destination: storage.bodyPath(key, write.body)))
            }
            metadata.append(
                PendingFile(
                    contents: try storage.codec.encodeMetadata(write.entry, body: write.body),
                    temporary: storage.temporaryPath(key), destination: storage.entryPath(key)))
        }
        return bodies + metadata
    }

    /// After a `deleteAll`: removes every file but those this batch wrote.
    private func removeAllBut(_ writes: [StorageKey: NamespaceBatch.Write], storage: NamespaceStorage) throws(FileSystemError) {
        for name in try storage.fileSystem.contentsOfDirectory(storage.entriesDirectory) {
            switch EntryFileName(name) {
            case .metadata(let key) where writes[key] != nil: continue
            case .body(let key, let body) where writes[key]?.body == body: continue
            default: try storage.fileSystem.removeIfPresent(storage.entriesDirectory + "/" + name)
            }
        }
    }
}
