package import HTTPCaching
import CacheStore
import Logging
import NIOCore
import PostgresNIO

extension SharedTier {
    /// Deletes what `scope` covers from the tier and publishes the purge to every instance
    /// (delivered when the deletion commits). Returns how many entries the tier held, or
    /// `nil` when it could not be reached (then the other instances are not told either).
    package func purge(_ scope: SharedPurge.Scope) async -> Int? {
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

    private static func count(_ rows: PostgresRowSequence) async throws -> Int {
        var count = 0
        for try await removed in rows.decode(Int.self) { count = removed }
        return count
    }
}
