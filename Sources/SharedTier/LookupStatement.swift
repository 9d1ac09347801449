import NIOCore
import PostgresNIO

/// The lookup a shared-tier hit or miss costs: every variant of a key, with its body. It only
/// reads (the entries are marked used later, together: `SharedTier.markUsed(_:)`). A prepared statement, parsed and planned once per connection — unprepared, PostgreSQL
/// parses, analyzes and plans it on every request (about half of its time per lookup).
///
/// The body comes by a subquery on its primary key, not a join: a join's plan depends on the
/// tables' statistics, and before autovacuum has analyzed a fresh table the planner hashes
/// every body row (2 ms a lookup at 4,000 entries instead of 0.15). A row whose body is
/// missing (`NULL`: another version written in between) is for the caller to leave out.
struct LookupStatement: PostgresPreparedStatement {
    /// Named for the schema it reads (a statement prepared on a connection keeps its name for
    /// the connection's life: a new schema's lookup must not reuse an old one's).
    static let name = "cachescope_lookup_schema\(SharedTierSchema.currentVersion)"
    static let sql = """
        SELECT e.id, e.metadata, (SELECT b.body FROM cachescope_bodies b WHERE b.id = e.id AND b.body_id = e.body_id)
        FROM cachescope_entries e WHERE e.key_digest = $1
        """
    static let bindingDataTypes: [PostgresDataType] = [.bytea]

    typealias Row = (ByteBuffer, ByteBuffer, ByteBuffer?)

    /// The key's digest (`SealedEntryCodec.keyDigest(for:)`).
    let digest: ByteBuffer

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(digest)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(Row.self)
    }
}
