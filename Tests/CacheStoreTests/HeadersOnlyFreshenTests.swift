@testable import CacheStore
import Foundation
import HTTPCaching
import HTTPTypes
import Testing

/// What a 304 freshen does on disk: the metadata file is replaced (written to `tmp/`, renamed
/// over the old one), the body file is left exactly as it was.
@Suite("Headers-only freshen", .timeLimit(.minutes(2)))
struct HeadersOnlyFreshenTests {
    static let uri = "https://example.com/large"

    /// The inode and modification time of a file.
    static func identity(_ path: String) throws -> (inode: UInt64, modified: Date) {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let inode = try #require(attributes[.systemFileNumber] as? NSNumber).uint64Value
        let modified = try #require(attributes[.modificationDate] as? Date)
        return (inode, modified)
    }

    /// Stores a body, flushes, and returns the stored entry with the recording file system cleared.
    func stored(_ body: [UInt8], factory: StoreFactory, store: ResponseStore) async throws -> CacheEntry {
        store.store(Self.uri, body: body, headers: [.eTag: "\"v1\""], now: factory.clock.now)
        await store.flush()
        return try #require(await store.entry(Self.uri))
    }

    @Test("a freshen writes only the metadata file: the body file keeps its inode, mtime and bytes", arguments: [false, true])
    func bodyUntouched(encrypted: Bool) async throws {
        let files = RecordingFileSystem()
        var factory = StoreFactory(directory: TemporaryDirectory(), diskCapacity: 64 << 20)
        factory.fileSystem = files
        if encrypted { factory.defaultNamespace = Namespace(name: "default", match: .all, encryptionKey: EncryptionTests.key) }
        let store = try factory.open()
        let body = Fixtures.body(1 << 20)
        let entry = try await stored(body, factory: factory, store: store)
        let directory = try #require(factory.directory)
        let bodyFile = try #require(directory.bodyFiles().first)
        let metadataFile = try #require(directory.entryFiles().first)
        let bodyBefore = try Self.identity(bodyFile)
        let bodyBytes = try Data(contentsOf: URL(fileURLWithPath: bodyFile))
        let metadataBefore = try Self.identity(metadataFile)
        _ = files.take()

        factory.clock.advance(by: 120)
        let later = factory.clock.now
        store.storeFreshened(
            FreshenedStoreTests.freshened(Self.uri, at: later, maxAge: 900), of: entry,
            freshUntil: later.addingTimeInterval(900), expiresAt: later.addingTimeInterval(3600))
        await store.flush()

        // One small file written (the metadata), renamed over the old one; nothing else.
        let operations = files.take()
        let writes = operations.compactMap { operation -> Int? in
            if case .write(_, let bytes) = operation { return bytes }
            return nil
        }
        #expect(writes.count == 1, "\(operations)")
        #expect(writes.allSatisfy { $0 < 1024 }, "the metadata of a 1 MB entry is under 1 KB: \(writes)")
        #expect(operations.contains { $0.renameTarget == metadataFile }, "\(operations)")
        #expect(!operations.contains { $0.touches(bodyFile) }, "\(operations)")

        #expect(directory.bodyFiles() == [bodyFile])
        let bodyAfter = try Self.identity(bodyFile)
        #expect(bodyAfter.inode == bodyBefore.inode)
        #expect(bodyAfter.modified == bodyBefore.modified)
        #expect(try Data(contentsOf: URL(fileURLWithPath: bodyFile)) == bodyBytes)
        #expect(try Self.identity(metadataFile).inode != metadataBefore.inode, "the metadata file was replaced by rename")
        await store.close()

        // Reopened: the new metadata with the old body.
        let reopened = try factory.open()
        let read = try #require(await reopened.entry(Self.uri))
        #expect(read.body == body)
        #expect(read.stored.cacheControl.maxAge == .seconds(900))
        #expect(read.stored.responseTime == later)
        #expect(read.stored.requestTime == later)
        #expect(read.metadata.freshUntil == later.addingTimeInterval(900))
        #expect(read.metadata.expiresAt == later.addingTimeInterval(3600))
        #expect(read.metadata.created == entry.metadata.created)
        #expect(factory.recorder.evictions(.corrupt).isEmpty)
        await reopened.close()
    }

    @Test("a freshen read back from disk (not memory) and freshened again still leaves the body file alone")
    func freshenOfDiskEntry() async throws {
        let factory = StoreFactory(directory: TemporaryDirectory(), memoryCapacity: 0)  // every read goes to disk
        let store = try factory.open()
        let body = Fixtures.body(5000)
        var entry = try await stored(body, factory: factory, store: store)
        let directory = try #require(factory.directory)
        let bodyFile = try #require(directory.bodyFiles().first)
        let inode = try Self.identity(bodyFile).inode
        for round in 1...3 {
            factory.clock.advance(by: 10)
            let now = factory.clock.now
            store.storeFreshened(
                FreshenedStoreTests.freshened(Self.uri, at: now, maxAge: 100 * round), of: entry,
                freshUntil: now.addingTimeInterval(Double(100 * round)), expiresAt: nil)
            await store.flush()
            entry = try #require(await store.entry(Self.uri))
            #expect(entry.body == body)
            #expect(entry.stored.cacheControl.maxAge == .seconds(100 * round))
            #expect(entry.metadata.freshUntil == now.addingTimeInterval(Double(100 * round)))
            #expect(directory.bodyFiles() == [bodyFile])
            #expect(try Self.identity(bodyFile).inode == inode)
        }
        #expect(store.invariantViolations() == [])
        await store.close()
    }

    @Test("a freshen queued behind the store that wrote the entry writes the body once, with the new metadata")
    func freshenInTheSameBatch() async throws {
        let factory = StoreFactory(directory: TemporaryDirectory())
        let store = try factory.open()
        let body = Fixtures.body(3000)
        store.store(Self.uri, body: body, headers: [.eTag: "\"v1\""], now: factory.clock.now)
        let entry = try #require(store.memoryVariants(for: Fixtures.key(Self.uri))?.first)
        let now = factory.clock.now.addingTimeInterval(5)
        store.storeFreshened(
            FreshenedStoreTests.freshened(Self.uri, at: now, maxAge: 700), of: entry, freshUntil: now.addingTimeInterval(700),
            expiresAt: nil)
        await store.close()
        #expect(factory.directory?.bodyFiles().count == 1)
        let reopened = try factory.open()
        let read = try #require(await reopened.entry(Self.uri))
        #expect(read.body == body)
        #expect(read.stored.cacheControl.maxAge == .seconds(700))
        await reopened.close()
    }

    @Test("a freshen of an entry whose variant was stored again meanwhile writes its own body, never the newer one")
    func freshenAfterRestore() async throws {
        let factory = StoreFactory(directory: TemporaryDirectory())
        let store = try factory.open()
        let old = try await stored(Fixtures.body(2000, seed: 1), factory: factory, store: store)
        let newer = Fixtures.body(2500, seed: 2)
        store.store(Self.uri, body: newer, headers: [.eTag: "\"v2\""], now: factory.clock.now)
        await store.flush()
        // The 304 answered the request made with the old entry's validator.
        let now = factory.clock.now.addingTimeInterval(5)
        store.storeFreshened(
            FreshenedStoreTests.freshened(Self.uri, at: now, maxAge: 300), of: old, freshUntil: now.addingTimeInterval(300),
            expiresAt: nil)
        await store.close()
        #expect(factory.directory?.bodyFiles().count == 1, "the replaced bodies were unlinked")
        let reopened = try factory.open()
        let read = try #require(await reopened.entry(Self.uri))
        #expect(read.body == old.body)
        #expect(read.stored.entityTag == old.stored.entityTag)
        #expect(read.stored.cacheControl.maxAge == .seconds(300))
        await reopened.close()
    }

    @Test("an entry file of format 1 (one file, from before the split) is still served, then replaced by two files on freshen")
    func format1StillRead() async throws {
        let factory = StoreFactory(directory: TemporaryDirectory())
        let body = Fixtures.body(4000)
        let entry: CacheEntry
        do {
            let store = try factory.open()
            entry = try await stored(body, factory: factory, store: store)
            await store.close()
        }
        // Rewrite what the store wrote as a version before the split would have: one file, no body id.
        let directory = try #require(factory.directory)
        let metadataFile = try #require(directory.entryFiles().first)
        for file in directory.bodyFiles() { try FileManager.default.removeItem(atPath: file) }
        try Data(try EntryFileCodec(contentKey: nil).encodeFormat1(entry)).write(to: URL(fileURLWithPath: metadataFile))
        let database = try IndexDatabase(path: directory.namespace() + "/index.sqlite")
        let row = try #require(try database.loadRows().first)
        let info = try #require(try database.infos(for: [row.storageKey])[row.storageKey])
        try database.apply(
            clearAll: false,
            writes: [
                IndexDatabase.RowWrite(
                    storageKey: row.storageKey, primary: row.primary, size: row.size, created: row.created,
                    lastAccess: row.lastAccess, accessCount: row.accessCount, freshUntil: row.freshUntil, expiresAt: row.expiresAt,
                    body: nil, info: info.info)
            ], deletes: [], accesses: [])
        database.close()

        let reopened = try factory.open()
        let read = try #require(await reopened.entry(Self.uri))
        #expect(read.body == body)
        #expect(read.bodyID == nil)
        let now = factory.clock.now.addingTimeInterval(5)
        reopened.storeFreshened(
            FreshenedStoreTests.freshened(Self.uri, at: now, maxAge: 400), of: read, freshUntil: now.addingTimeInterval(400),
            expiresAt: nil)
        await reopened.close()
        #expect(directory.bodyFiles().count == 1)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: metadataFile)))
        #expect(Array(bytes.prefix(4)) == EntryFileCodec.metadataMagic)
        let again = try factory.open()
        let freshened = try #require(await again.entry(Self.uri))
        #expect(freshened.body == body)
        #expect(freshened.stored.cacheControl.maxAge == .seconds(400))
        #expect(factory.recorder.evictions(.corrupt).isEmpty)
        await again.close()
    }

    @Test("killed between a re-store's metadata rename and its commit, then removed at open: both bodies go, none is left behind")
    func crashThenSweep() async throws {
        let factory = StoreFactory(directory: TemporaryDirectory())
        let entry: CacheEntry
        do {
            let store = try factory.open()
            store.store(Self.uri, body: Fixtures.body(1000), expiresIn: 30, now: factory.clock.now)
            await store.flush()
            entry = try #require(await store.entry(Self.uri))
            await store.close()
        }
        // What the kill left: a newer metadata file naming a newer body, beside the old body; the row still names the old.
        let directory = try #require(factory.directory)
        let metadataFile = try #require(directory.entryFiles().first)
        let codec = EntryFileCodec(contentKey: nil)
        let newer = BodyID(0xfeed)
        try Data(try codec.encodeBody(entry.body, storageKey: entry.storageKey, id: newer)).write(to: URL(fileURLWithPath: metadataFile + "." + newer.hex))
        try Data(try codec.encodeMetadata(entry, body: newer)).write(to: URL(fileURLWithPath: metadataFile))
        #expect(directory.bodyFiles().count == 2)

        factory.clock.advance(by: 60)  // expired: the sweep at open removes it before the repair pass runs
        let reopened = try factory.open()
        await reopened.flush()
        #expect(directory.entryFiles().isEmpty)
        #expect(directory.bodyFiles().isEmpty, "\(directory.bodyFiles())")
        #expect(factory.recorder.evictions(.corrupt).isEmpty)
        await reopened.close()
    }

    @Test("an index from before the split gains its body column at open; its rows read as format 1")
    func indexUpgrade() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let path = directory.path + "/index.sqlite"
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute(
                """
                CREATE TABLE entries (
                    id BLOB PRIMARY KEY NOT NULL, key BLOB NOT NULL, size INTEGER NOT NULL, created REAL NOT NULL,
                    last_access REAL NOT NULL, access_count INTEGER NOT NULL, fresh_until REAL, expires_at REAL,
                    info BLOB NOT NULL);
                INSERT INTO entries VALUES (zeroblob(32), zeroblob(32), 10, 1, 2, 3, NULL, NULL, x'00');
                """)
            connection.close()
        }
        let database = try IndexDatabase(path: path)
        let rows = try database.loadRows()
        #expect(rows.count == 1)
        #expect(rows.first?.body == nil)
        #expect(rows.first?.accessCount == 3)
        database.close()
    }
}

extension RecordingFileSystem.Operation {
    var renameTarget: String? {
        if case .rename(_, let to) = self { return to }
        return nil
    }

    func touches(_ path: String) -> Bool {
        switch self {
        case .write(let written, _): return written == path
        case .rename(let from, let to): return from == path || to == path
        case .remove(let removed): return removed == path
        }
    }
}
