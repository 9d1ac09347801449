@testable import CacheStore
import Foundation
import Testing

@Suite("What others leave in tmp/", .timeLimit(.minutes(2)))
struct TemporaryFolderTests {
    /// A folder with something in it under `tmp/` made the namespace memory-only at every open
    /// (`cannot remove …/tmp/sub: Directory not empty`).
    @Test("a folder with files in tmp/ is emptied and removed at open; the namespace keeps its disk")
    func nestedFolderRemoved() async throws {
        let directory = TemporaryDirectory()
        do {
            let (factory, store) = try StoreFactory(directory: directory).opened()
            store.store("https://example.com/kept", body: [1, 2, 3], now: factory.clock.now)
            await store.close()
        }
        let nested = directory.namespace() + "/tmp/sub/deeper"
        try FileManager.default.createDirectory(atPath: nested, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: nested + "/y"))
        let (factory, store) = try StoreFactory(directory: directory).opened()
        #expect(await store.entry("https://example.com/kept")?.body == [1, 2, 3])
        await store.flush()
        #expect(factory.recorder.diskFailures.isEmpty, "\(factory.recorder.diskFailures)")
        #expect(store.stats().degradedNamespaces.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.namespace() + "/tmp").isEmpty)
        await store.close()
    }
}
