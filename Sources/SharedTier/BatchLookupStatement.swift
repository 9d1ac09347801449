import NIOCore
import PostgresNIO

/// ``LookupStatement`` for several keys at once (``LookupBatcher``): every variant of each,
/// with its body and the key's digest to tell them apart.
struct BatchLookupStatement: PostgresPreparedStatement {
    static let name = "cachescope_batch_lookup_schema\(SharedTierSchema.currentVersion)"
    static let sql = """
        SELECT e.key_digest, e.id, e.metadata, (SELECT b.body FROM cachescope_bodies b WHERE b.id = e.id AND b.body_id = e.body_id)
        FROM cachescope_entries e WHERE e.key_digest = ANY($1)
        """
    static let bindingDataTypes: [PostgresDataType] = [.byteaArray]

    typealias Row = (ByteBuffer, ByteBuffer, ByteBuffer, ByteBuffer?)

    /// The keys' digests (`SealedEntryCodec.keyDigest(for:)`).
    let digests: [ByteBuffer]

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(digests)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(Row.self)
    }
}
