@testable import CacheStore
import Foundation
import HTTPCaching
import HTTPTypes

/// Opens stores for tests with small capacities, a manual clock and a change recorder.
struct StoreFactory {
    var directory: TemporaryDirectory?
    var memoryCapacity = 1 << 20
    var diskCapacity = 8 << 20
    var maximumEntryShare = 0.25
    var namespaces: [Namespace] = []
    var defaultNamespace = Namespace.default
    var clock = ManualClock()
    var fileSystem: (any StoreFileSystem)?
    var sweepInterval: Duration = .seconds(3600)
    var diskBacklogLimit = StoreConfiguration.defaultDiskBacklogLimit
    var diskMedium = DiskMedium.files
    let recorder = ChangeRecorder()

    var configuration: StoreConfiguration {
        var configuration = StoreConfiguration(
            memoryCapacity: memoryCapacity, diskCapacity: diskCapacity, directory: directory?.url,
            maximumEntryShare: maximumEntryShare, sweepInterval: sweepInterval, namespaces: namespaces,
            defaultNamespace: defaultNamespace, currentDate: clock.function)
        if let fileSystem { configuration.fileSystem = fileSystem }
        configuration.diskBacklogLimit = diskBacklogLimit
        configuration.diskMedium = diskMedium
        return configuration
    }

    func open() throws(CacheStoreError) -> ResponseStore {
        try ResponseStore(configuration: configuration, observer: recorder.observer)
    }

    /// The factory with a store opened from it: `let (factory, store) = try StoreFactory(…).opened()`.
    func opened() throws(CacheStoreError) -> (StoreFactory, ResponseStore) {
        (self, try open())
    }
}

extension ResponseStore {
    /// Stores `body` for `uri` (fresh for 60 s, kept for a day unless given).
    @discardableResult
    func store(
        _ uri: String, body: [UInt8], headers: HTTPFields = [:], requestHeaders: HTTPFields = [:],
        expiresIn: TimeInterval? = 86_400, policy: StoragePolicy = .allowed, now: Date
    ) -> EntryTier? {
        storeCachedResponse(
            Fixtures.response(uri, headers: headers, requestHeaders: requestHeaders, at: now), body: body,
            freshUntil: now.addingTimeInterval(60), expiresAt: expiresIn.map { now.addingTimeInterval($0) }, policy: policy)
    }

    /// The single variant of a URI's key (or `nil`).
    func entry(_ uri: String) async -> CacheEntry? {
        await variants(for: Fixtures.key(uri)).first
    }
}
