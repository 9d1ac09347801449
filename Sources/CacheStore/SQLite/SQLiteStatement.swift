import CSQLite

/// A compiled SQLite statement: bind, step, read columns, reset. Column and parameter
/// indexes follow SQLite (parameters from 1, columns from 0).
final class SQLiteStatement {
    private let statement: OpaquePointer
    private let connection: SQLiteConnection

    init(statement: OpaquePointer, connection: SQLiteConnection) {
        self.statement = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(statement) }

    // MARK: Binding

    func bind(_ index: Int32, _ value: Int) throws(SQLiteError) {
        try check(sqlite3_bind_int64(statement, index, Int64(value)))
    }

    func bind(_ index: Int32, int64 value: Int64?) throws(SQLiteError) {
        if let value {
            try check(sqlite3_bind_int64(statement, index, value))
        } else {
            try check(sqlite3_bind_null(statement, index))
        }
    }

    func bind(_ index: Int32, _ value: Double?) throws(SQLiteError) {
        if let value {
            try check(sqlite3_bind_double(statement, index, value))
        } else {
            try check(sqlite3_bind_null(statement, index))
        }
    }

    func bind(_ index: Int32, _ value: String) throws(SQLiteError) {
        try check(sqlite3_bind_text(statement, index, value, -1, csqlite_transient()))
    }

    func bind(_ index: Int32, blob: [UInt8]) throws(SQLiteError) {
        let code = blob.withUnsafeBytes { raw in
            sqlite3_bind_blob(statement, index, raw.baseAddress, Int32(raw.count), csqlite_transient())
        }
        try check(code)
    }

    func bind(_ index: Int32, _ key: StorageKey) throws(SQLiteError) {
        try bind(index, blob: key.bytes)
    }

    // MARK: Stepping

    /// Advances; `true` when a row is ready, `false` when done.
    func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(statement)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(code)
        }
    }

    /// Runs a statement that returns no rows, then resets it.
    func run() throws(SQLiteError) {
        defer { reset() }
        _ = try step()
    }

    /// Resets and clears bindings so the statement can run again.
    func reset() {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    // MARK: Columns

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

    func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

    func optionalInt64(_ column: Int32) -> Int64? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, column)
    }

    func optionalDouble(_ column: Int32) -> Double? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_double(statement, column)
    }

    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let pointer = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: pointer)
    }

    /// A 32-byte blob column as a storage key, read without an intermediate array; `nil` when
    /// the column is not 32 bytes.
    func storageKey(_ column: Int32) -> StorageKey? {
        guard sqlite3_column_bytes(statement, column) == 32, let pointer = sqlite3_column_blob(statement, column) else {
            return nil
        }
        return StorageKey(UnsafeRawBufferPointer(start: pointer, count: 32))
    }

    private func check(_ code: Int32) throws(SQLiteError) {
        guard code == SQLITE_OK else { throw connection.error(code) }
    }
}
