import CSQLite

/// One connection to an SQLite database file, used by one owner at a time (the disk actor, or
/// the opener before it hands over). Raw SQLite handles never leave this file and
/// ``SQLiteStatement``.
final class SQLiteConnection {
    private var handle: OpaquePointer?
    /// The database file.
    let path: String

    /// Opens (creating if needed) the database at `path`.
    init(path: String) throws(SQLiteError) {
        self.path = path
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw SQLiteError(code: code, message: message, path: path)
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit { close() }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(try open(), sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Compiles a statement.
    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(try open(), sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code) }
        return SQLiteStatement(statement: statement, connection: self)
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction(_ body: () throws(SQLiteError) -> Void) throws(SQLiteError) {
        try execute("BEGIN IMMEDIATE")
        do {
            try body()
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Closes the connection; later calls throw.
    func close() {
        guard let handle else { return }
        sqlite3_close_v2(handle)
        self.handle = nil
    }

    /// The error for a result code, with the connection's message.
    func error(_ code: Int32) -> SQLiteError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "connection closed"
        return SQLiteError(code: code, message: message, path: path)
    }

    private func open() throws(SQLiteError) -> OpaquePointer {
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "connection closed", path: path) }
        return handle
    }
}

/// An SQLite failure: the result code, SQLite's message and the database path.
struct SQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String
    let path: String

    /// Whether the file is not a database or is damaged (the index must be rebuilt).
    var isCorruption: Bool {
        let primary = code & 0xff
        return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB
    }

    var description: String { "SQLite error \(code) on \(path): \(message)" }
}
