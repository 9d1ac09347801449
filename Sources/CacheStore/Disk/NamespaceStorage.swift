import Foundation

/// One namespace's directory on disk, owned by the disk actor once the store is open:
///
/// ```
/// <directory>/<namespace directory>/     0700
///     lock                               0600  flock held while open
///     index.sqlite, index.sqlite-wal     0600  the index (IndexDatabase)
///     entries/<64 hex digits>            0600  an entry's metadata (EntryFileCodec)
///     entries/<64 hex>.<16 hex>          0600  its body, named by body id (BodyID)
///     tmp/                                     files being written, renamed into entries/
/// ```
final class NamespaceStorage {
    /// Why a namespace could not be opened: a configuration problem the app must fix
    /// (thrown from the store's initialiser), or a disk failure (the namespace degrades).
    enum OpenFailure: Error {
        case configuration(CacheStoreError)
        case disk(String)
    }

    let name: String
    let directory: String
    let entriesDirectory: String
    let temporaryDirectory: String
    let indexPath: String
    private(set) var database: IndexDatabase
    let codec: EntryFileCodec
    let sealer: IndexSealer
    /// Names tags in the index's `tags` table (keyed digests when encrypted).
    let naming: EntryNaming
    let fileSystem: any StoreFileSystem
    private let lock: FileLock

    private init(
        name: String, directory: String, database: IndexDatabase, keys: NamespaceKeys?, fileSystem: any StoreFileSystem,
        lock: FileLock
    ) {
        self.name = name
        self.directory = directory
        self.entriesDirectory = directory + "/entries"
        self.temporaryDirectory = directory + "/tmp"
        self.indexPath = directory + "/index.sqlite"
        self.database = database
        self.codec = EntryFileCodec(contentKey: keys?.content, verifiesChecksums: !fileSystem.keepsFilesInMemory)
        self.sealer = IndexSealer(key: keys?.index)
        self.naming = EntryNaming(key: keys?.naming)
        self.fileSystem = fileSystem
        self.lock = lock
    }

    /// A reader for lookups on the caller's thread.
    var reader: DiskReader { DiskReader(entriesDirectory: entriesDirectory, codec: codec, fileSystem: fileSystem) }

    /// The path of an entry's metadata file (or format-1 whole file).
    func entryPath(_ key: StorageKey) -> String { entriesDirectory + "/" + key.hex }

    /// The path of one of an entry's body files.
    func bodyPath(_ key: StorageKey, _ body: BodyID) -> String { entriesDirectory + "/" + key.hex + "." + body.hex }

    /// A fresh path in `tmp/` for writing an entry's file.
    func temporaryPath(_ key: StorageKey) -> String {
        temporaryDirectory + "/" + key.hex + "." + String(UInt64.random(in: 0...UInt64.max), radix: 36) + ".tmp"
    }

    // MARK: Opening

    /// Opens (creating if needed) the namespace's directory and index, checks the format and
    /// key, and loads the index rows. An unreadable index is rebuilt empty (its message is
    /// returned as `reset`).
    static func open(
        namespace: Namespace, in base: String, keys: NamespaceKeys?, fileSystem: any StoreFileSystem
    ) throws(OpenFailure) -> (storage: NamespaceStorage, rows: [IndexDatabase.Row], reset: String?) {
        let directory = base + "/" + namespace.directoryName
        let lock: FileLock
        do {
            try fileSystem.createDirectory(base, ownedByStore: false)
            try fileSystem.createDirectory(directory, ownedByStore: true)
            guard let taken = try fileSystem.lockExclusively(directory + "/lock") else {
                throw OpenFailure.configuration(.directoryInUse(path: directory))
            }
            lock = taken
            try fileSystem.createDirectory(directory + "/entries", ownedByStore: true)
            try fileSystem.createDirectory(directory + "/tmp", ownedByStore: true)
        } catch let failure as OpenFailure {
            throw failure
        } catch {
            throw .disk("\(error)")
        }
        let indexPath = directory + "/index.sqlite"
        var reset = missingIndex(indexPath, in: directory, fileSystem: fileSystem)
        let database: IndexDatabase
        do {
            database = try openIndex(indexPath, keys: keys, fileSystem: fileSystem)
        } catch .index(let error) where error.isCorruption {
            reset = "the cache index \(indexPath) was unreadable (\(error.message)); the namespace was emptied and its index rebuilt"
            do {
                try removeAll(in: directory, fileSystem: fileSystem)
                database = try openIndex(indexPath, keys: keys, fileSystem: fileSystem)
            } catch {
                throw error.asOpenFailure
            }
        } catch {
            throw error.asOpenFailure
        }
        let storage = NamespaceStorage(
            name: namespace.name, directory: directory, database: database, keys: keys, fileSystem: fileSystem, lock: lock)
        do {
            return (storage, try database.loadRows(), reset)
        } catch {
            throw .disk("cannot read the cache index \(indexPath): \(error)")
        }
    }

    /// What to report when the index is gone but entry files are not (deleted by hand, or
    /// lost with a backup that left it out): without rows the files are removed at open, so
    /// the namespace comes back empty — said, rather than silently. `nil` otherwise.
    private static func missingIndex(_ indexPath: String, in directory: String, fileSystem: any StoreFileSystem) -> String? {
        guard let names = try? fileSystem.contentsOfDirectory(directory), !names.contains("index.sqlite"),
            let entries = try? fileSystem.contentsOfDirectory(directory + "/entries"), !entries.isEmpty
        else { return nil }
        return "the cache index \(indexPath) was missing while entries/ held \(entries.count) files; without it they cannot be read, "
            + "so they were removed and the index made anew"
    }

    /// Why opening the index failed.
    private enum IndexOpenError: Error {
        case index(SQLiteError)
        case file(FileSystemError)
        case configuration(CacheStoreError)

        var asOpenFailure: OpenFailure {
            switch self {
            case .index(let error): return .disk("cannot open the cache index: \(error)")
            case .file(let error): return .disk("\(error)")
            case .configuration(let error): return .configuration(error)
            }
        }
    }

    private static func openIndex(
        _ path: String, keys: NamespaceKeys?, fileSystem: any StoreFileSystem
    ) throws(IndexOpenError) -> IndexDatabase {
        do {
            try fileSystem.createPrivateFile(path)
        } catch {
            throw .file(error)
        }
        do {
            let database = try IndexDatabase(path: path)
            try checkFormat(database, path: path, keys: keys)
            return database
        } catch let error as SQLiteError {
            throw .index(error)
        } catch let error as CacheStoreError {
            throw .configuration(error)
        } catch {
            throw .index(SQLiteError(code: 1, message: "\(error)", path: path))
        }
    }

    /// Checks (or, for a new index, writes) the format, the encryption mode and the key check.
    private static func checkFormat(_ database: IndexDatabase, path: String, keys: NamespaceKeys?) throws {
        let sealer = IndexSealer(key: keys?.index)
        let directory = String(path.dropLast("/index.sqlite".count))
        guard let format = try database.meta("format") else {
            try database.setMeta([
                "format": Array(IndexDatabase.formatVersion.utf8),
                "encryption": Array((sealer.isEncrypted ? "aes-256-gcm" : "none").utf8),
                "keyCheck": try sealer.makeKeyCheck(),
            ])
            return
        }
        let formatText = String(decoding: format, as: UTF8.self)
        guard formatText == IndexDatabase.formatVersion else {
            throw CacheStoreError.incompatibleIndex(path: path, found: formatText)
        }
        let encryption = String(decoding: try database.meta("encryption") ?? [], as: UTF8.self)
        let storeIsEncrypted = encryption != "none"
        guard storeIsEncrypted == sealer.isEncrypted else {
            throw CacheStoreError.encryptionMismatch(path: directory, storeIsEncrypted: storeIsEncrypted)
        }
        if sealer.isEncrypted, !sealer.verifyKeyCheck(try database.meta("keyCheck") ?? []) {
            throw CacheStoreError.wrongEncryptionKey(path: path)
        }
    }

    /// Deletes the index files and every entry and temporary file of a namespace.
    private static func removeAll(in directory: String, fileSystem: any StoreFileSystem) throws(IndexOpenError) {
        do {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                do {
                    try fileSystem.removeFile(directory + "/index.sqlite" + suffix)
                } catch where error.isNotFound {}
            }
            for folder in ["entries", "tmp"] {
                for name in try fileSystem.contentsOfDirectory(directory + "/" + folder) {
                    try fileSystem.removeFile(directory + "/" + folder + "/" + name)
                }
            }
        } catch {
            throw .file(error)
        }
    }

    /// Closes the index (after a checkpoint) and releases the directory lock with `self`.
    func close() {
        database.checkpoint()
        database.close()
    }
}
