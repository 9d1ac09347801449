import Foundation

/// One namespace's index: an SQLite database in WAL mode with one row per stored entry.
///
/// The row holds what the store needs at open without touching entry files — the storage
/// key (file name), the primary-key digest, size, times, hits, freshness and retention — and
/// `info`, the entry's description for the listing (URI, Vary signature, status, validators),
/// sealed with AES-GCM when the namespace is encrypted. `meta` records the format and, for
/// an encrypted namespace, a sealed key check that tells a wrong key from damage. `tags` maps
/// each tag's digest (``EntryNaming/tagKey(for:)``) to the rows that carry it; it is created
/// when an index from before tags is opened (its entries have no tag rows).
///
/// Durability: `journal_mode=WAL`, `synchronous=NORMAL`. A commit is in the WAL when it
/// returns, so it survives `kill -9`; a power cut may lose the last commits but never
/// corrupts the database, and entry files are synced before the commit that names them.
/// `locking_mode=EXCLUSIVE` keeps the WAL index in process memory (no `-shm` file).
final class IndexDatabase {
    /// One row as loaded at open.
    struct Row {
        let storageKey: StorageKey
        let primary: StorageKey
        let size: Int
        let created: Date
        let lastAccess: Date
        let accessCount: Int
        let freshUntil: Date?
        let expiresAt: Date?
        /// The id of the entry's body file; `nil` for a format-1 entry file (body inline).
        let body: BodyID?
    }

    /// One row to insert or replace: the columns loaded at open (read through, as
    /// `write.size`), and `info`.
    @dynamicMemberLookup
    struct RowWrite {
        let row: Row
        let info: [UInt8]
        /// The digests of the entry's tags (``EntryNaming/tagKey(for:)``), one `tags` row each.
        let tags: [StorageKey]

        subscript<Value>(dynamicMember column: KeyPath<Row, Value>) -> Value { row[keyPath: column] }

        init(
            storageKey: StorageKey, primary: StorageKey, size: Int, created: Date, lastAccess: Date, accessCount: Int,
            freshUntil: Date?, expiresAt: Date?, body: BodyID?, info: [UInt8], tags: [StorageKey] = []
        ) {
            row = Row(
                storageKey: storageKey, primary: primary, size: size, created: created, lastAccess: lastAccess,
                accessCount: accessCount, freshUntil: freshUntil, expiresAt: expiresAt, body: body)
            self.info = info
            self.tags = tags
        }
    }

    /// The format this code writes and reads. Format 1 indexes from before the `body`
    /// column are upgraded in place at open (the column is added, `NULL` in old rows).
    static let formatVersion = "1"

    private let connection: SQLiteConnection
    private var upsert: SQLiteStatement?
    private var delete: SQLiteStatement?
    private var touch: SQLiteStatement?
    private var selectInfo: SQLiteStatement?
    private var setBody: SQLiteStatement?
    private var insertTag: SQLiteStatement?
    private var deleteTags: SQLiteStatement?

    /// The database file.
    var path: String { connection.path }

    /// Opens or creates the database and its schema.
    init(path: String) throws(SQLiteError) {
        connection = try SQLiteConnection(path: path)
        try connection.execute(
            """
            PRAGMA locking_mode=EXCLUSIVE;
            PRAGMA journal_mode=WAL;
            PRAGMA synchronous=NORMAL;
            CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS entries (
                id BLOB PRIMARY KEY NOT NULL,
                key BLOB NOT NULL,
                size INTEGER NOT NULL,
                created REAL NOT NULL,
                last_access REAL NOT NULL,
                access_count INTEGER NOT NULL,
                fresh_until REAL,
                expires_at REAL,
                info BLOB NOT NULL,
                body INTEGER
            );
            CREATE TABLE IF NOT EXISTS tags (tag BLOB NOT NULL, id BLOB NOT NULL, PRIMARY KEY (tag, id)) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS tags_by_entry ON tags (id);
            """)
        try addBodyColumnIfMissing()
    }

    /// Indexes written before metadata and body were split have no `body` column: their
    /// rows name format-1 entry files (body inline), which are still read. Adding the column
    /// (`NULL` in those rows) is all the upgrade they need.
    private func addBodyColumnIfMissing() throws(SQLiteError) {
        let columns = try connection.prepare("PRAGMA table_info(entries)")
        while try columns.step() {
            if columns.text(1) == "body" { return }
        }
        try connection.execute("ALTER TABLE entries ADD COLUMN body INTEGER")
    }

    // MARK: Meta

    /// A `meta` value, or `nil`.
    func meta(_ name: String) throws(SQLiteError) -> [UInt8]? {
        let statement = try connection.prepare("SELECT value FROM meta WHERE name = ?1")
        try statement.bind(1, name)
        return try statement.step() ? statement.blob(0) : nil
    }

    /// Sets `meta` values in one transaction.
    func setMeta(_ values: [String: [UInt8]]) throws(SQLiteError) {
        let statement = try connection.prepare("INSERT OR REPLACE INTO meta (name, value) VALUES (?1, ?2)")
        try connection.transaction { () throws(SQLiteError) in
            for (name, value) in values {
                try statement.bind(1, name)
                try statement.bind(2, blob: value)
                try statement.run()
            }
        }
    }

    // MARK: Rows

    /// Every row (without `info`), in no particular order. Rows with a malformed key
    /// column are skipped (they can only come from outside tampering).
    func loadRows() throws(SQLiteError) -> [Row] {
        let statement = try connection.prepare(
            "SELECT id, key, size, created, last_access, access_count, fresh_until, expires_at, body FROM entries")
        var rows: [Row] = []
        let counter = try connection.prepare("SELECT count(*) FROM entries")
        if try counter.step() { rows.reserveCapacity(counter.int(0)) }
        while try statement.step() {
            guard let storageKey = statement.storageKey(0), let primary = statement.storageKey(1) else { continue }
            rows.append(
                Row(
                    storageKey: storageKey, primary: primary, size: statement.int(2),
                    created: Date(timeIntervalSinceReferenceDate: statement.double(3)),
                    lastAccess: Date(timeIntervalSinceReferenceDate: statement.double(4)),
                    accessCount: statement.int(5),
                    freshUntil: statement.optionalDouble(6).map(Date.init(timeIntervalSinceReferenceDate:)),
                    expiresAt: statement.optionalDouble(7).map(Date.init(timeIntervalSinceReferenceDate:)),
                    body: statement.optionalInt64(8).map { BodyID(UInt64(bitPattern: $0)) }))
        }
        return rows
    }

    /// The storage key and body id of every row (`nil` body: a format-1 entry file).
    func storageKeys() throws(SQLiteError) -> [StorageKey: BodyID?] {
        let statement = try connection.prepare("SELECT id, body FROM entries")
        var keys: [StorageKey: BodyID?] = [:]
        while try statement.step() {
            // updateValue: assigning a nil body through the subscript would remove the key.
            if let key = statement.storageKey(0) { keys.updateValue(statement.optionalInt64(1).map { BodyID(UInt64(bitPattern: $0)) }, forKey: key) }
        }
        return keys
    }

    /// The storage keys of the rows tagged with `tag` (its digest).
    func storageKeys(taggedWith tag: StorageKey) throws(SQLiteError) -> [StorageKey] {
        let statement = try connection.prepare("SELECT id FROM tags WHERE tag = ?1")
        try statement.bind(1, tag)
        var keys: [StorageKey] = []
        while try statement.step() {
            if let key = statement.storageKey(0) { keys.append(key) }
        }
        return keys
    }

    /// The `info` blobs and sizes of the given rows (absent rows are left out).
    func infos(for keys: some Sequence<StorageKey>) throws(SQLiteError) -> [StorageKey: (info: [UInt8], size: Int)] {
        if selectInfo == nil { selectInfo = try connection.prepare("SELECT info, size FROM entries WHERE id = ?1") }
        let statement = selectInfo!
        var result: [StorageKey: (info: [UInt8], size: Int)] = [:]
        for key in keys {
            try statement.bind(1, key)
            defer { statement.reset() }
            if try statement.step() { result[key] = (statement.blob(0), statement.int(1)) }
        }
        return result
    }

    /// Applies one batch in one transaction: optionally every row removed first, then rows
    /// written, rows deleted, and access times updated.
    func apply(
        clearAll: Bool, writes: [RowWrite], deletes: [StorageKey],
        accesses: [(key: StorageKey, lastAccess: Date, accessCount: Int)]
    ) throws(SQLiteError) {
        if upsert == nil {
            upsert = try connection.prepare(
                """
                INSERT OR REPLACE INTO entries
                    (id, key, size, created, last_access, access_count, fresh_until, expires_at, info, body)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
                """)
            delete = try connection.prepare("DELETE FROM entries WHERE id = ?1")
            touch = try connection.prepare("UPDATE entries SET last_access = ?2, access_count = ?3 WHERE id = ?1")
            insertTag = try connection.prepare("INSERT OR IGNORE INTO tags (tag, id) VALUES (?1, ?2)")
            deleteTags = try connection.prepare("DELETE FROM tags WHERE id = ?1")
        }
        let upsert = upsert!, delete = delete!, touch = touch!, insertTag = insertTag!, deleteTags = deleteTags!
        try connection.transaction { () throws(SQLiteError) in
            if clearAll { try connection.execute("DELETE FROM entries; DELETE FROM tags") }
            for row in writes {
                // A replaced entry's tags go with it; the new version's are written below.
                try deleteTags.bind(1, row.storageKey)
                try deleteTags.run()
                for tag in row.tags {
                    try insertTag.bind(1, tag)
                    try insertTag.bind(2, row.storageKey)
                    try insertTag.run()
                }
                try upsert.bind(1, row.storageKey)
                try upsert.bind(2, row.primary)
                try upsert.bind(3, row.size)
                try upsert.bind(4, row.created.timeIntervalSinceReferenceDate)
                try upsert.bind(5, row.lastAccess.timeIntervalSinceReferenceDate)
                try upsert.bind(6, row.accessCount)
                try upsert.bind(7, row.freshUntil?.timeIntervalSinceReferenceDate)
                try upsert.bind(8, row.expiresAt?.timeIntervalSinceReferenceDate)
                try upsert.bind(9, blob: row.info)
                try upsert.bind(10, int64: row.body.map { Int64(bitPattern: $0.value) })
                try upsert.run()
            }
            for key in deletes {
                try delete.bind(1, key)
                try delete.run()
                try deleteTags.bind(1, key)
                try deleteTags.run()
            }
            for access in accesses {
                try touch.bind(1, access.key)
                try touch.bind(2, access.lastAccess.timeIntervalSinceReferenceDate)
                try touch.bind(3, access.accessCount)
                try touch.run()
            }
        }
    }

    /// Sets the body ids of rows whose metadata file was found to name another body than
    /// the row (a crash between the file's rename and the commit of its row).
    func setBodies(_ bodies: [(key: StorageKey, body: BodyID)]) throws(SQLiteError) {
        if setBody == nil { setBody = try connection.prepare("UPDATE entries SET body = ?2 WHERE id = ?1") }
        guard let statement = setBody else { return }
        try connection.transaction { () throws(SQLiteError) in
            for (key, body) in bodies {
                try statement.bind(1, key)
                try statement.bind(2, int64: Int64(bitPattern: body.value))
                try statement.run()
            }
        }
    }

    /// Sets how often SQLite syncs: `FULL` syncs the WAL at every commit (power-cut
    /// durability of the last commit), `NORMAL` (the default here) only at checkpoints.
    func setSynchronous(full: Bool) throws(SQLiteError) {
        try connection.execute(full ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL")
    }

    /// Moves the WAL into the database file (at close, so the next open reads one file).
    func checkpoint() {
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Closes the connection.
    func close() {
        upsert = nil
        delete = nil
        touch = nil
        selectInfo = nil
        setBody = nil
        insertTag = nil
        deleteTags = nil
        connection.close()
    }
}
