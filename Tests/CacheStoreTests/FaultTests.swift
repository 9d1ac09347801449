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
