@testable import CacheStore
import Foundation
import Testing

/// The store's own folders followed as links: its open emptied `tmp/`'s target and cleared
/// `entries/`' of what was not its own, and made them private — someone else's folder, from
/// `cachescope get --cache-dir` (a hunt of 27 November).
@Suite("Symbolic links among the store's folders", .timeLimit(.minutes(2)))
struct SymbolicLinkTests {
    @Test("a tmp/ or entries/ that is a link to another folder is refused: that folder is left as it was, the namespace works in memory",
          arguments: ["tmp", "entries", ""])
    func linkedFolderRefused(name: String) async throws {
        let directory = TemporaryDirectory()
        let victim = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: victim.path, withIntermediateDirectories: true)
        let keep = victim.path + "/important.txt"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: keep))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: victim.path)
        let linked = name.isEmpty ? directory.namespace() : directory.namespace() + "/" + name
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        if !name.isEmpty { try FileManager.default.createDirectory(atPath: directory.namespace(), withIntermediateDirectories: true) }
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: victim.path)

        let (factory, store) = try StoreFactory(directory: directory).opened()
        #expect(FileManager.default.fileExists(atPath: keep), "the linked folder's file is still there")
        let mode = try FileManager.default.attributesOfItem(atPath: victim.path)[.posixPermissions] as? Int
        #expect(mode == 0o755, "its mode unchanged")
        #expect(factory.recorder.diskFailures.first?.contains("symbolic link") == true, "\(factory.recorder.diskFailures)")
        #expect(store.stats().degradedNamespaces == ["default"])
        store.store("https://example.com/a", body: [1, 2, 3], now: factory.clock.now)
        await store.flush()
        await store.close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path) == ["important.txt"], "nothing written into it")
    }
}
