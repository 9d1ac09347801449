package import HTTPCaching
package import CacheStore
import Logging
import NIOCore
import PostgresNIO

extension SharedTier {
    /// Deletes what `scope` covers from the tier and publishes the purge to every instance
    /// (delivered when the deletion commits). Returns how many entries the tier held, or
    /// `nil` when it could not be reached (then the other instances are not told either).
    ///
    /// A key, tag or all-purge is one statement. The tier keeps no URL in the clear, so a
    /// prefix or filter purge reads every entry's metadata, opens it, and deletes the rows
    /// `matches` keeps (for a prefix, when `matches` is `nil`, the URL's prefix decides).
    package func purge(_ scope: SharedPurge.Scope, matching matches: (@Sendable (OpenedHead) -> Bool)? = nil) async -> Int? {
        let payload = SharedPurge(scope: scope, origin: configuration.instanceName, sender: senderID).payload
        let channel = configuration.channel
        switch scope {
        case .key(let key):
            let digest = ByteBuffer(bytes: codec.keyDigest(for: key))
            return await attempt("purge") { client in
                try await Self.count(
                    client.query(
                        """
                        WITH gone AS (DELETE FROM cachescope_entries WHERE key_digest = \(digest) RETURNING id),
                        bodies AS (DELETE FROM cachescope_bodies WHERE id IN (SELECT id FROM gone))
                        SELECT (SELECT count(*) FROM gone) FROM (SELECT pg_notify(\(channel), \(payload))) AS notified
                        """))
            }
        case .tag(let tag):
            let digests = codec.tagDigests(for: tag).map { ByteBuffer(bytes: $0) }
            return await attempt("purge") { client in
                try await Self.count(
                    client.query(
                        """
                        WITH gone AS (
                            DELETE FROM cachescope_entries WHERE id IN (SELECT id FROM cachescope_tags WHERE tag = ANY(\(digests)))
                            RETURNING id),
                        bodies AS (DELETE FROM cachescope_bodies WHERE id IN (SELECT id FROM gone))
                        SELECT (SELECT count(*) FROM gone) FROM (SELECT pg_notify(\(channel), \(payload))) AS notified
                        """))
            }
        case .prefix(let prefix):
            return await purgeRows(payload: payload, matching: matches ?? { $0.stored.key.uri.hasPrefix(prefix) })
        case .filter:
            return await purgeRows(payload: payload, matching: matches ?? { _ in false })
        case .all:
            return await attempt("purge") { client in
                try await Self.count(
                    client.query(
                        """
                        WITH gone AS (DELETE FROM cachescope_entries RETURNING id), bodies AS (DELETE FROM cachescope_bodies)
                        SELECT (SELECT count(*) FROM gone) FROM (SELECT pg_notify(\(channel), \(payload))) AS notified
                        """))
            }
        }
    }

    /// Removes every variant of `key` from the tier without telling other instances: what a
    /// successful unsafe request invalidates (RFC 9111 §4.4), which each instance sees itself
    /// only for its own requests. In the background; `false` when the write was dropped.
    @discardableResult
    package func invalidate(_ key: CacheKey) -> Bool {
        let digest = ByteBuffer(bytes: codec.keyDigest(for: key))
        return writes.start(limit: configuration.maximumPendingWrites) { [self] in
            _ = await attempt("invalidation") { client in
                try await client.perform(
                    """
                    WITH gone AS (DELETE FROM cachescope_entries WHERE key_digest = \(digest) RETURNING id)
                    DELETE FROM cachescope_bodies WHERE id IN (SELECT id FROM gone)
                    """)
                return true
            }
        }
    }

    /// Reads every entry's metadata, deletes the rows whose opened head `matches` keeps (a
    /// row that does not open is left alone), and publishes `payload` — one round trip to read,
    /// one to delete and notify, each within the query timeout.
    private func purgeRows(payload: String, matching matches: @escaping @Sendable (OpenedHead) -> Bool) async -> Int? {
        let channel = configuration.channel
        let codec = codec
        let ids = await attempt("purge") { client -> [ByteBuffer] in
            var ids: [ByteBuffer] = []
            let rows = try await client.query("SELECT id, metadata FROM cachescope_entries")
            for try await (id, metadata) in rows.decode((ByteBuffer, ByteBuffer).self) {
                guard let head = codec.openHead(id: Array(id.readableBytesView), metadata: Array(metadata.readableBytesView)),
                    matches(head)
                else { continue }
                ids.append(id)
            }
            return ids
        }
        guard let ids else { return nil }
        return await attempt("purge") { client in
            try await Self.count(
                client.query(
                    """
                    WITH gone AS (DELETE FROM cachescope_entries WHERE id = ANY(\(ids)) RETURNING id),
                    bodies AS (DELETE FROM cachescope_bodies WHERE id IN (SELECT id FROM gone))
                    SELECT (SELECT count(*) FROM gone) FROM (SELECT pg_notify(\(channel), \(payload))) AS notified
                    """))
        }
    }

    private static func count(_ rows: PostgresRowSequence) async throws -> Int {
        var count = 0
        for try await removed in rows.decode(Int.self) { count = removed }
        return count
    }
}
