@testable import CacheStore
import Foundation
import HTTPCaching
import Testing

/// Damage to files under the index: each is detected on read, removed, reported
/// `evicted(corrupt)` and treated as a miss — never served, never a crash.
@Suite("Corruption", .timeLimit(.minutes(2)))
struct CorruptionTests {
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case flipBodyByte, flipHeaderByte, truncate, empty, delete, swapWithAnother, appendGarbage
        /// An empty directory where the file was: read as "cache disk failed" for the whole
        /// namespace, and the entry could never be written again (found by a bug hunt).
        case replacedByDirectory

        var testDescription: String { rawValue }
    }

    static let uri = "https://example.com/victim"
    static let otherURI = "https://example.com/other"

    /// Which of an entry's two files is damaged.
    enum Part {
        case metadata, body

        func files(in directory: TemporaryDirectory) -> [String] {
            self == .metadata ? directory.entryFiles() : directory.bodyFiles()
        }
    }

    /// Stores two entries, closes, damages the victim's metadata or body file, reopens.
    func damaged(_ damage: Damage, encrypted: Bool, part: Part = .metadata) async throws -> (StoreFactory, ResponseStore, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let factory = StoreFactory(
            directory: directory,
            defaultNamespace: encrypted ? Namespace(name: "default", match: .all, encryptionKey: EncryptionTests.key) : .default)
        let store = try factory.open()
        store.store(Self.uri, body: Fixtures.body(4000, seed: 1), now: factory.clock.now)
        await store.flush()
        let victim = try #require(part.files(in: directory).first)
        store.store(Self.otherURI, body: Fixtures.body(4000, seed: 2), now: factory.clock.now)
        await store.close()

        let other = try #require(part.files(in: directory).first { $0 != victim })
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: victim)))
        switch damage {
        case .flipBodyByte: bytes[bytes.count - 100] ^= 0x01
        case .flipHeaderByte: bytes[20] ^= 0x80
        case .truncate: bytes = Array(bytes.prefix(bytes.count / 2))
        case .empty: bytes = []
        case .delete, .replacedByDirectory: break
        case .swapWithAnother: bytes = Array(try Data(contentsOf: URL(fileURLWithPath: other)))
        case .appendGarbage: bytes += [1, 2, 3]
        }
        if damage == .delete || damage == .replacedByDirectory {
            try FileManager.default.removeItem(atPath: victim)
            if damage == .replacedByDirectory { try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: false) }
        } else {
            try Data(bytes).write(to: URL(fileURLWithPath: victim))
        }
        let reopened = try factory.open()
        return (factory, reopened, directory)
    }

    /// A store on a fresh directory that held `body` for ``uri`` and was closed.
    func closedStore(holding body: [UInt8]) async throws -> (StoreFactory, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let (factory, store) = try StoreFactory(directory: directory).opened()
        store.store(Self.uri, body: body, now: factory.clock.now)
        await store.close()
        return (factory, directory)
    }

    @Test("damaged metadata files are a miss plus a corrupt event, and are removed", arguments: Damage.allCases, [false, true])
    func detect(damage: Damage, encrypted: Bool) async throws {
        try await detect(damage, encrypted: encrypted, part: .metadata)
    }

    @Test("damaged or missing body files are a miss plus a corrupt event, and are removed", arguments: Damage.allCases, [false, true])
    func detectInBody(damage: Damage, encrypted: Bool) async throws {
        try await detect(damage, encrypted: encrypted, part: .body)
    }

    private func detect(_ damage: Damage, encrypted: Bool, part: Part) async throws {
        let (factory, store, directory) = try await damaged(damage, encrypted: encrypted, part: part)
        #expect(await store.entry(Self.uri) == nil)
        await store.flush()
        let corrupt = factory.recorder.evictions(.corrupt)
        #expect(corrupt.map(\.id.key.uri) == [Self.uri])
        #expect(corrupt.first?.removedFrom == .disk)
        #expect(directory.entryFiles().count == 1)
        #expect(directory.bodyFiles().count == 1)
        #expect(await store.entry(Self.otherURI)?.body == Fixtures.body(4000, seed: 2))
        #expect(store.invariantViolations() == [])
        // The namespace still works.
        store.store(Self.uri, body: [9], now: factory.clock.now)
        #expect(await store.entry(Self.uri)?.body == [9])
        await store.close()
    }

    @Test("a corrupted file is caught while the store runs, not only at open")
    func detectWhileRunning() async throws {
        let directory = TemporaryDirectory()
        let (factory, store) = try StoreFactory(directory: directory, memoryCapacity: 0).opened()  // every read goes to disk
        store.store(Self.uri, body: Fixtures.body(3000), now: factory.clock.now)
        await store.flush()
        #expect(await store.entry(Self.uri) != nil)
        let file = try #require(directory.entryFiles().first)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        bytes[bytes.count / 2] ^= 0xff
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        #expect(await store.entry(Self.uri) == nil)
        #expect(factory.recorder.evictions(.corrupt).count == 1)
        await store.flush()
        #expect(directory.entryFiles().isEmpty)
        #expect(directory.bodyFiles().isEmpty)
        await store.close()
    }

    @Test("orphan and temporary files are removed at open")
    func orphans() async throws {
        let (factory, directory) = try await closedStore(holding: [1, 2, 3])
        let orphan = directory.namespace() + "/entries/" + String(repeating: "ab", count: 32)
        let orphanBody = orphan + ".0123456789abcdef"
        // A second body beside the entry's own, as a crash between a re-store's commit and its unlink leaves.
        let staleBody = try #require(directory.entryFiles().first) + ".00000000000000ff"
        let stray = directory.namespace() + "/entries/not-an-entry"
        let temporary = directory.namespace() + "/tmp/" + String(repeating: "cd", count: 32) + ".x.tmp"
        for path in [orphan, orphanBody, staleBody, stray, temporary] { try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path)) }
        let reopened = try factory.open()
        await reopened.flush()
        #expect(directory.entryFiles().count == 1)
        #expect(directory.bodyFiles().count == 1)
        #expect(!directory.bodyFiles().contains(staleBody))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.namespace() + "/tmp").isEmpty)
        #expect(factory.recorder.evictions(.corrupt).isEmpty)
        #expect(await reopened.entry(Self.uri)?.body == [1, 2, 3])
        await reopened.close()
    }

    @Test("an unreadable index is rebuilt empty and reported; the store keeps working")
    func garbageIndex() async throws {
        let (factory, directory) = try await closedStore(holding: [1, 2, 3])
        let index = directory.namespace() + "/index.sqlite"
        try Data(repeating: 0x42, count: 8192).write(to: URL(fileURLWithPath: index))
        let reopened = try factory.open()
        let resets = factory.recorder.all.compactMap { change -> String? in
            if case .indexReset(let message) = change { return message }
            return nil
        }
        #expect(resets.count == 1)
        #expect(resets.first?.contains(index) == true)
        #expect(await reopened.entry(Self.uri) == nil)
        await reopened.flush()
        #expect(directory.entryFiles().isEmpty)
        #expect(reopened.store(Self.uri, body: [4], now: factory.clock.now) == .both)
        await reopened.close()
    }

    /// The namespace came back empty without a word.
    @Test("an index deleted while its entry files remain is reported; the store starts empty and keeps working")
    func deletedIndex() async throws {
        let (factory, directory) = try await closedStore(holding: [1, 2, 3])
        let index = directory.namespace() + "/index.sqlite"
        try FileManager.default.removeItem(atPath: index)
        let reopened = try factory.open()
        let resets = factory.recorder.all.compactMap { change -> String? in
            if case .indexReset(let message) = change { return message }
            return nil
        }
        #expect(resets == [
            "the cache index \(index) was missing while entries/ held 2 files; without it they cannot be read, so they were removed and the index made anew"
        ])
        #expect(await reopened.entry(Self.uri) == nil)
        await reopened.flush()
        #expect(directory.entryFiles().isEmpty)
        #expect(reopened.store(Self.uri, body: [4], now: factory.clock.now) == .both)
        await reopened.close()

        // A fresh directory, with no index and no entries yet, says nothing.
        let fresh = StoreFactory(directory: TemporaryDirectory())
        let opened = try fresh.open()
        #expect(!fresh.recorder.all.contains { if case .indexReset = $0 { true } else { false } })
        await opened.close()
    }
}
