import Foundation
import Testing
@testable import CacheScopeApp
#if canImport(Glibc)
import Glibc
#endif

/// A demo or proxy killed with SIGKILL left its temporary store (up to the disk capacity)
/// behind, and no later run removed it (a hunt of 27 November).
@Suite("Abandoned temporary stores")
struct AbandonedStoresTests {
    private func store(_ name: String, in base: URL, age: TimeInterval) throws -> URL {
        let store = base.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: store.appendingPathComponent("default/entries"), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: store.appendingPathComponent("default/lock").path, contents: Data()))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: store.path)
        return store
    }

    @Test("a store older than a minute whose locks no process holds is removed; one in use, a new one, a user's named alike and anything else are not")
    func sweep() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("cachescope-sweep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        let abandoned = try store("cachescope-proxy-\(UUID().uuidString)", in: base, age: 120)
        let inUse = try store("cachescope-demo-\(UUID().uuidString)", in: base, age: 3600)
        let starting = try store("cachescope-demo-\(UUID().uuidString)", in: base, age: 5)
        let other = try store("someone-else-\(UUID().uuidString)", in: base, age: 3600)
        // A user's own --cache-dir named like one (a review of 27 November).
        let kept = try store("cachescope-demo-keep", in: base, age: 3600)
        // A running process holds its namespace's lock for as long as it runs.
        let held = open(inUse.appendingPathComponent("default/lock").path, O_RDWR)
        #expect(flock(held, LOCK_EX | LOCK_NB) == 0)
        defer { close(held) }

        #expect(AbandonedStores.sweep(in: base) == 1)
        #expect(!FileManager.default.fileExists(atPath: abandoned.path))
        for stays in [inUse, starting, other, kept] { #expect(FileManager.default.fileExists(atPath: stays.path), "\(stays.lastPathComponent)") }
    }
}
