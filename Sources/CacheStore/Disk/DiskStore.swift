import Foundation
import HTTPCaching
import Logging
import SystemPackage

/// The disk tier: an actor on its own executor that makes the disk follow the in-memory
/// index. It takes queued ``DiskCommand``s in batches, reads entry files for lookups, loads
/// descriptions for the listing, and repairs each namespace once after open.
///
/// A failing disk (full, read-only, I/O error) closes the namespace's storage and degrades
/// it to memory only through ``StoreIndex/diskFailed(namespace:message:)``; nothing is thrown
/// to callers.
actor DiskStore {
    private let executor: DiskExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// One per namespace; `nil` for a namespace without disk, failed, or after close.
    var storages: [NamespaceStorage?]
    let core: StoreCore
    let logger: Logger
    private var repaired = false
    private var closed = false

    init(storages: sending [NamespaceStorage?], core: StoreCore, logger: Logger) {
        self.executor = DiskExecutor(label: "cachescope.store.disk")
        self.storages = storages
        self.core = core
        self.logger = logger
    }

    /// How long the actor waits after a wake before taking the queue. Stores arriving in
    /// that window join the same batch and do not wake the actor again (a wake is a thread
    /// hand-off the storing caller pays); a larger batch also shares one `syncfs`.
    static let batchWindow: Duration = .milliseconds(2)

    /// Processes batches whenever woken, until the stream ends; then closes.
    func run(wakes: AsyncStream<Void>) async {
        prepare()
        processPending()
        for await _ in wakes {
            try? await Task.sleep(for: Self.batchWindow)
            processPending()
        }
        close()
    }

    /// Carries out every queued command (tests and shutdown wait on this).
    func flush() {
        prepare()
        processPending()
    }

    /// Carries out the queued work and closes every namespace (checkpointing its index and
    /// releasing its directory lock). Later calls do nothing.
    func close() {
        guard !closed else { return }
        flush()
        for storage in storages { storage?.close() }
        storages = storages.map { _ in nil }
        closed = true
    }

    // MARK: Reads

    /// Reads and verifies the files of records a lookup needs. Queued writes go first when
    /// one of the records is not written yet, so a lookup always sees what was stored.
    func read(namespace: Int, reads: [DiskRead], key: CacheKey) -> [ReadOutcome] {
        prepare()
        if reads.contains(where: { !$0.isWritten }) { processPending() }
        guard let storage = storages[namespace] else { return [] }
        var outcomes: [ReadOutcome] = []
        outcomes.reserveCapacity(reads.count)
        for read in reads {
            switch DiskReader.readEntry(
                read.storageKey, key: key, in: storage.entriesDirectory, codec: storage.codec, fileSystem: storage.fileSystem)
            {
            case .decoded(let decoded):
                outcomes.append(.entry(read.storageKey, generation: read.generation, decoded))
            case .corrupt(let reason):
                // Logged once the index confirms it (`ResponseStore.variants`): the record may
                // have been replaced while this read its old file.
                outcomes.append(.corrupt(read.storageKey, generation: read.generation, reason: reason))
            case .failed(let error):
                fail(namespace, "\(error)")
                return outcomes
            }
        }
        return outcomes
    }

    /// The descriptions of disk records, from the index (for the listing). A row whose
    /// description cannot be opened is removed as corrupt.
    func loadInfos(namespace: Int, keys: [StorageKey]) -> [StorageKey: EntryInfo] {
        prepare()
        guard let storage = storages[namespace] else { return [:] }
        let rows: [StorageKey: (info: [UInt8], size: Int)]
        do {
            rows = try storage.database.infos(for: keys)
        } catch {
            fail(namespace, "cannot read the cache index \(storage.indexPath): \(error)")
            return [:]
        }
        var infos: [StorageKey: EntryInfo] = [:]
        var damaged: [StorageKey] = []
        for (key, row) in rows {
            if let info = decodeInfo(row.info, key: key, storage: storage) { infos[key] = info } else { damaged.append(key) }
        }
        if !damaged.isEmpty {
            core.withIndex { index in
                for key in damaged { index.remove(key, namespace: namespace, reason: .corrupt) }
            }
        }
        return infos
    }

    func decodeInfo(_ blob: [UInt8], key: StorageKey, storage: NamespaceStorage) -> EntryInfo? {
        guard let plain = try? storage.sealer.open(blob, for: key) else { return nil }
        return try? EntryInfo(decoding: plain)
    }

    // MARK: Failure

    /// Closes a namespace's storage and degrades it to memory only.
    func fail(_ namespace: Int, _ message: String) {
        logger.error("cache disk failed; keeping entries in memory only", metadata: ["namespace": "\(namespace)", "error": "\(message)"])
        storages[namespace]?.close()
        storages[namespace] = nil
        core.withIndex { $0.diskFailed(namespace: namespace, message: message) }
    }

    // MARK: Repair

    /// Once, before any other disk work: removes temporary files (interrupted writes) and
    /// entry files no row names (a crash between rename and commit, or between a commit
    /// that deleted rows and the unlinks); rows whose file is missing are removed as corrupt.
    ///
    /// It compares files with the rows of the database — the disk's own truth, unchanged
    /// since open because no batch has run yet — not with the live in-memory index, which
    /// may already have dropped records whose rows are still on disk (their deletes queued):
    /// removing those files now would leave rows without files if the process died before
    /// the deletes committed.
    func prepare() {
        guard !repaired else { return }
        repaired = true
        for namespace in storages.indices {
            guard let storage = storages[namespace] else { continue }
            repair(storage, namespace: namespace)
        }
    }

    /// Removes `path`, and when it is a folder with something in it (left in `tmp/` by someone
    /// else), what it holds first — a few levels deep; links are removed, never followed.
    private static func removeWhole(_ path: String, fileSystem: any StoreFileSystem, depth: Int = 0) throws(FileSystemError) {
        do {
            try fileSystem.removeIfPresent(path)
        } catch where error.errno == .directoryNotEmpty && depth < 8 {
            for name in try fileSystem.contentsOfDirectory(path) {
                try removeWhole(path + "/" + name, fileSystem: fileSystem, depth: depth + 1)
            }
            try fileSystem.removeIfPresent(path)
        }
    }

    private func repair(_ storage: NamespaceStorage, namespace: Int) {
        let fileSystem = storage.fileSystem
        do {
            for name in try fileSystem.contentsOfDirectory(storage.temporaryDirectory) {
                try Self.removeWhole(storage.temporaryDirectory + "/" + name, fileSystem: fileSystem)
            }
            let rows = try storage.database.storageKeys()
            var present = Set<StorageKey>()
            var bodies: [StorageKey: [BodyID]] = [:]
            let names = try fileSystem.contentsOfDirectory(storage.entriesDirectory)
            present.reserveCapacity(names.count / 2)
            for name in names {
                switch EntryFileName(name) {
                case .metadata(let key) where rows[key] != nil: present.insert(key)
                case .body(let key, let body) where rows[key] != nil: bodies[key, default: []].append(body)
                default: try fileSystem.removeIfPresent(storage.entriesDirectory + "/" + name)
                }
            }
            try settleBodies(bodies, rows: rows, present: present, storage: storage, namespace: namespace)
            let missing = Set(rows.keys).subtracting(present)
            guard !missing.isEmpty else { return }
            logger.warning("cache entries without files", metadata: ["namespace": "\(storage.name)", "count": "\(missing.count)"])
            core.withIndex { index in
                for key in missing {
                    // A record stored again since open gets a new file from its queued write.
                    guard index.namespaces[namespace].records.peek(key)?.isWritten == true else { continue }
                    index.remove(key, namespace: namespace, reason: .corrupt)
                }
            }
        } catch {
            fail(namespace, "\(error)")
        }
    }

    /// Leaves each entry one body file: the one its metadata file names. An entry has more
    /// (or another than its row says) only after a crash inside a batch — between a body's
    /// rename and the unlink of the body it replaced — so only then is its metadata file read.
    /// Rows and records whose body id lags the metadata file are brought up to date.
    private func settleBodies(
        _ bodies: [StorageKey: [BodyID]], rows: [StorageKey: BodyID?], present: Set<StorageKey>, storage: NamespaceStorage,
        namespace: Int
    ) throws {
        var corrected: [(key: StorageKey, body: BodyID)] = []
        for (key, found) in bodies {
            let row = rows[key] ?? nil
            if found.count == 1, found[0] == row { continue }
            guard present.contains(key), let bytes = try? storage.fileSystem.readFile(storage.entryPath(key)),
                let metadata = try? storage.codec.decodeMetadata(bytes, storageKey: key)
            else { continue }  // unreadable: the first lookup reports it corrupt, and the next open cleans up
            var named: BodyID?
            if case .separate(_, let body, _) = metadata { named = body }
            for body in found where body != named { try storage.fileSystem.removeIfPresent(storage.bodyPath(key, body)) }
            if let named, named != row, found.contains(named) { corrected.append((key, named)) }
        }
        guard !corrected.isEmpty else { return }
        try storage.database.setBodies(corrected)
        let correction = Dictionary(corrected.map { ($0.key, (old: rows[$0.key] ?? nil, new: $0.body)) }) { first, _ in first }
        core.withIndex { $0.correctBodies(correction, namespace: namespace) }
    }
}
