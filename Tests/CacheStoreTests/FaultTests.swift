@testable import CacheStore
import Foundation
import HTTPCaching
import Testing

/// A failing disk degrades its namespace to memory only with a reported error; nothing
/// crashes and memory hits go on.
@Suite("Disk faults", .timeLimit(.minutes(2)))
struct FaultTests {
    func factory(_ fileSystem: FaultInjectingFileSystem) -> StoreFactory {
        StoreFactory(directory: TemporaryDirectory(), fileSystem: fileSystem)
    }

    @Test("a full disk degrades to memory only; memory hits go on and new stores stay in memory")
    func diskFull() async throws {
        let fileSystem = FaultInjectingFileSystem()
        let factory = factory(fileSystem)
        let store = try factory.open()
        store.store("https://example.com/before", body: Fixtures.body(100), now: factory.clock.now)
        await store.flush()
        fileSystem.inject(.diskFull)
        store.store("https://example.com/during", body: Fixtures.body(100), now: factory.clock.now)
        await store.flush()
        let failures = factory.recorder.diskFailures
        #expect(failures.count == 1)
        #expect(failures.first?.contains("No space left on device") == true)
        #expect(failures.first?.contains(factory.directory!.namespace()) == true)
        #expect(store.stats().degradedNamespaces == ["default"])
        #expect(await store.entry("https://example.com/during")?.body == Fixtures.body(100))
        #expect(await store.entry("https://example.com/before")?.body == Fixtures.body(100))
        #expect(store.store("https://example.com/after", body: [1], now: factory.clock.now) == .memory)
        #expect(store.stats().diskEntryCount == 0)
        #expect(store.invariantViolations() == [])
        await store.close()
    }

    @Test("while the disk is stalled, responses beyond the backlog stay in memory only; once it catches up it takes new ones")
    func diskBacklog() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var factory = factory(fileSystem)
        // One byte: a write may join the queue only when it is empty.
        factory.diskBacklogLimit = 1
        let store = try factory.open()
        fileSystem.inject(.stalled)
        var tiers: [EntryTier?] = []
        for index in 0..<6 {
            tiers.append(store.store("https://example.com/\(index)", body: Fixtures.body(1000), now: factory.clock.now))
            if index == 0 {
                // Until the disk actor has taken the first write (and stalls writing it).
                for _ in 0..<5000 where !store.core.read({ $0.commands.isEmpty }) { try await Task.sleep(for: .milliseconds(1)) }
            }
        }
        // The first is queued and taken by the stalled disk; the next is queued behind it; the
        // rest find the queue full and stay in memory only, served all the same.
        #expect(tiers.prefix(2) == [.both, .both], "tiers: \(tiers)")
        #expect(tiers.dropFirst(2).allSatisfy { $0 == .memory }, "tiers: \(tiers)")
        for index in 0..<6 { #expect(await store.entry("https://example.com/\(index)") != nil) }
        fileSystem.inject(nil)
        await store.flush()
        #expect(factory.directory!.entryFiles().count == 2)
        #expect(store.store("https://example.com/after", body: Fixtures.body(1000), now: factory.clock.now) == .both)
        await store.flush()
        #expect(factory.directory!.entryFiles().count == 3)
        #expect(store.invariantViolations() == [])
        await store.close()
    }

    @Test("a diskBacklogLimit that is not positive is refused, naming the setting")
    func badBacklogLimit() {
        var configuration = StoreConfiguration()
        configuration.diskBacklogLimit = 0
        #expect(throws: CacheStoreError.invalidConfiguration("diskBacklogLimit must be positive (is 0)")) {
            try ResponseStore(configuration: configuration)
        }
    }

    @Test("a read-only directory at open gives a memory-only store and a reported error")
    func readOnlyAtOpen() async throws {
        let fileSystem = FaultInjectingFileSystem()
        fileSystem.inject(.readOnly)
        let factory = factory(fileSystem)
        let store = try factory.open()
        #expect(factory.recorder.diskFailures.first?.contains("Read-only file system") == true)
        #expect(store.store("https://example.com/a", body: [1], now: factory.clock.now) == .memory)
        #expect(await store.entry("https://example.com/a")?.body == [1])
        await store.close()
    }

    @Test("an I/O error on read degrades the namespace and the lookup is a miss")
    func readError() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var factory = factory(fileSystem)
        factory.memoryCapacity = 0
        let store = try factory.open()
        store.store("https://example.com/a", body: [1, 2], now: factory.clock.now)
        await store.flush()
        fileSystem.inject(.readError)
        #expect(await store.entry("https://example.com/a") == nil)
        #expect(factory.recorder.diskFailures.first?.contains("Input/output error") == true)
        #expect(factory.recorder.evictions(.corrupt).isEmpty)
        #expect(store.stats().degradedNamespaces == ["default"])
        await store.close()
    }

    @Test("a read-only disk while running degrades on the next write")
    func readOnlyWhileRunning() async throws {
        let fileSystem = FaultInjectingFileSystem()
        let factory = factory(fileSystem)
        let store = try factory.open()
        fileSystem.inject(.readOnly)
        for index in 0..<10 { store.store("https://example.com/\(index)", body: [UInt8(index)], now: factory.clock.now) }
        await store.flush()
        #expect(factory.recorder.diskFailures.count == 1)
        for index in 0..<10 { #expect(await store.entry("https://example.com/\(index)")?.body == [UInt8(index)]) }
        await store.close()
    }
}
