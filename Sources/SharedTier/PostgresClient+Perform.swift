import Logging
import PostgresNIO

// A statement's rows are read to the end even when nobody wants them: only then does its
// connection go back to the pool (or take the next statement of a transaction).

extension PostgresClient {
    /// Runs `query` and reads its rows to the end; how many there were.
    @discardableResult
    func perform(_ query: PostgresQuery) async throws -> Int {
        var count = 0
        for try await _ in try await self.query(query) { count += 1 }
        return count
    }
}

extension PostgresConnection {
    /// Runs `query` and reads its rows to the end; how many there were.
    @discardableResult
    func perform(_ query: PostgresQuery, logger: Logger) async throws -> Int {
        var count = 0
        for try await _ in try await self.query(query, logger: logger) { count += 1 }
        return count
    }
}
