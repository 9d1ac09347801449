import Foundation
import HTTPCaching

/// A two-level HTTP response store: an LRU memory tier bounded by bytes, over a crash-safe
/// disk tier (SQLite index, one file per entry, optional AES-GCM encryption), split into
/// namespaces by URI.
///
/// Lookups read memory, then disk (a disk hit is promoted to memory); a memory hit never
/// waits on disk I/O. A store goes into memory at once and to disk in the background, in
/// batches. Every change is reported to the observer. Names follow URLCache where they fit.
///
/// ```swift
/// let store = try ResponseStore(configuration: StoreConfiguration(directory: cacheURL)) { change in
///     events.yield(change)
/// }
/// store.storeCachedResponse(stored, body: body, freshUntil: fresh, expiresAt: keep)
/// let variants = await store.variants(for: key)   // every Vary variant of the key
/// store.recordAccess(variants[chosen])            // count the one actually served
/// await store.close()
/// ```
///
/// A disk that fails (full, read-only, I/O error) degrades its namespace to memory only and
/// reports ``StoreChange/diskFailure(_:)``; nothing is thrown at run time.
public final class ResponseStore: Sendable {
    let core: StoreCore
    let table: NamespaceTable
    let disk: DiskStore?
    /// One per namespace with a disk, for reads on the caller's thread.
    let readers: [DiskReader?]
    private let sweepTask = Locked<Task<Void, Never>?>(nil)
    private let runTask: Task<Void, Never>?

    /// Opens a store: creates or opens each namespace's directory, checks its index format
    /// and encryption key, loads its index, removes expired entries and evicts down to the
    /// capacities. Files left by a crash are cleaned up in the background right after.
    ///
    /// - Parameters:
    ///   - configuration: capacities, directory, namespaces; see ``StoreConfiguration``.
    ///   - observer: receives every change, including those found while opening.
    /// - Throws: ``CacheStoreError`` for problems the app must fix: a wrong or missing key,
    ///   an encryption mismatch, an index of an unknown format, a directory in use, an
    ///   invalid configuration. A directory that cannot be created or read only degrades its
    ///   namespace to memory (reported as ``StoreChange/diskFailure(_:)``).
    public init(configuration: StoreConfiguration = StoreConfiguration(), observer: StoreObserver? = nil) throws(CacheStoreError) {
        try configuration.validate()
        let table = NamespaceTable(configuration.allNamespaces)
        let opened = try Self.openNamespaces(configuration: configuration, table: table)
        let now = configuration.currentDate()
        var index = StoreIndex(
            memoryCapacity: configuration.memoryCapacity, diskCapacity: configuration.diskCapacity,
            maximumEntryShare: configuration.maximumEntryShare, diskBacklogLimit: configuration.diskBacklogLimit,
            namespaces: opened.indexes)
        index.changes = opened.changes
        index.tagField = configuration.tagFieldName
        index.removeExpired(now: now, reportPurge: false)
        index.evictDiskIfNeeded()

        let hasDisk = opened.storages.contains { $0 != nil }
        readers = opened.storages.map { $0?.reader }
        let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let core = StoreCore(index: index, observer: observer, wake: hasDisk ? wake : nil, now: configuration.currentDate)
        self.core = core
        self.table = table
        if hasDisk {
            let disk = DiskStore(storages: opened.storages, core: core, logger: configuration.logger)
            self.disk = disk
            runTask = Task { await disk.run(wakes: wakes) }
        } else {
            disk = nil
            runTask = nil
            wake.finish()
        }
        core.reportPendingChanges()  // what opening found
        startSweeping(every: configuration.sweepInterval)
    }

    deinit {
        sweepTask.withLock { $0?.cancel() }
        core.finishWakes()
    }

    /// Receives every change from now on (replacing the observer given at init).
    public func setObserver(_ observer: StoreObserver?) {
        core.setObserver(observer)
    }

    // MARK: Lifecycle

    /// Waits until every store and removal made so far is on disk (and access times are
    /// written). For tests and orderly shutdown; the store does not need it.
    public func flush() async {
        await disk?.flush()
    }

    /// Writes what is queued, closes the indexes and releases the directories; the store
    /// keeps working in memory only. Call before the process ends, or before another store
    /// opens the same directory.
    public func close() async {
        sweepTask.withLock { task in
            task?.cancel()
            task = nil
        }
        await disk?.close()
        core.withIndex { $0.detachDisk() }
        core.finishWakes()
        await runTask?.value
    }

    /// Sweeps expired entries and writes access times every `interval`.
    private func startSweeping(every interval: Duration) {
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled, let self else { return }
                self.removeExpired()
                await self.disk?.flush()
            }
        }
        sweepTask.withLock { $0 = task }
    }
}
