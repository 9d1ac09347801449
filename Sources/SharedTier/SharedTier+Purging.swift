package import HTTPCaching
package import CacheStore
import Foundation
import Logging
import NIOCore
import PostgresNIO
import Synchronization

extension SharedTier {
    /// Deletes what `scope` covers from the tier and publishes the purge to every instance
    /// (delivered when the deletion commits). Returns how many entries the tier held, or
    /// `nil` when it could not be reached: then the purge is kept as an ``UnsentPurge``, sent
    /// (and the other instances told) once the tier answers again, and until then rows it
    /// covers are not served here. (A purge whose task was cancelled is not kept.)
    ///
    /// A key, tag or all-purge is one statement. The tier keeps no URL in the clear, so a
    /// prefix or filter purge reads every entry's metadata, page by page, opens it, and
    /// deletes the rows `matches` keeps (for a prefix, when `matches` is `nil`, the URL's
    /// prefix decides).
    package func purge(_ scope: SharedPurge.Scope, matching: (@Sendable (OpenedHead) -> Bool)? = nil) async -> Int? {
        let matches = Self.rowsTaken(by: scope, matching: matching)
        guard let count = await purgeNow(scope, matching: matches) else {
            if !Task.isCancelled { keepUnsent(UnsentPurge(scope: scope, matching: matches)) }
            return nil
        }
        return count
    }

    /// The rows a prefix or filter purge takes, which only opening each row tells: `matching`
    /// when given, else a prefix purge's URLs under it (a filter without one takes none);
    /// `nil` for the scopes a statement selects by digest.
    static func rowsTaken(
        by scope: SharedPurge.Scope, matching: (@Sendable (OpenedHead) -> Bool)?
    ) -> (@Sendable (OpenedHead) -> Bool)? {
        switch scope {
        case .prefix(let prefix): matching ?? { $0.stored.key.uri.hasPrefix(prefix) }
        case .filter: matching ?? { _ in false }
        case .key, .tag, .all: nil
        }
    }

    /// ``purge(_:matching:)`` once, `matches` as ``rowsTaken(by:matching:)`` gives it: `nil`
    /// when the tier could not be reached.
    func purgeNow(_ scope: SharedPurge.Scope, matching matches: (@Sendable (OpenedHead) -> Bool)?) async -> Int? {
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
        case .prefix, .filter:
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
    /// row that does not open is left alone), and publishes `payload` with the last deletion.
    /// Page by page (``SharedTierConfiguration/scanPageSize`` rows a query, in `id` order, each
    /// query within the query timeout), so a table of any size is gone through in as many
    /// round trips as it has pages, never in one query that a large table would make too slow.
    private func purgeRows(payload: String, matching matches: @escaping @Sendable (OpenedHead) -> Bool) async -> Int? {
        let (channel, codec, page) = (configuration.channel, codec, configuration.scanPageSize)
        var ids: [ByteBuffer] = []
        var after = ByteBuffer()  // ids are non-empty: every id sorts after the empty one
        while true {
            let from = after
            let read = await attempt("purge") { client -> (matching: [ByteBuffer], last: ByteBuffer?, count: Int) in
                var matching: [ByteBuffer] = [], last: ByteBuffer?, count = 0
                let rows = try await client.query(
                    "SELECT id, metadata FROM cachescope_entries WHERE id > \(from) ORDER BY id LIMIT \(page)")
                for try await (id, metadata) in rows.decode((ByteBuffer, ByteBuffer).self) {
                    count += 1
                    last = id
                    guard let head = codec.openHead(id: Array(id.readableBytesView), metadata: Array(metadata.readableBytesView)),
                        matches(head)
                    else { continue }
                    matching.append(id)
                }
                return (matching, last, count)
            }
            guard let read else { return nil }
            ids += read.matching
            guard read.count == page, let last = read.last else { break }
            after = last
        }
        var removed = 0
        var start = 0
        repeat {
            let batch = Array(ids[start..<min(start + page, ids.count)])
            start += page
            let notifies = start >= ids.count  // the other instances are told with the last batch
            let deleted = await attempt("purge") { client in
                try await Self.count(
                    client.query(
                        """
                        WITH gone AS (DELETE FROM cachescope_entries WHERE id = ANY(\(batch)) RETURNING id),
                        bodies AS (DELETE FROM cachescope_bodies WHERE id IN (SELECT id FROM gone))
                        SELECT (SELECT count(*) FROM gone) FROM (SELECT CASE WHEN \(notifies) THEN pg_notify(\(channel), \(payload)) END) AS notified
                        """))
            }
            guard let deleted else { return nil }
            removed += deleted
        } while start < ids.count
        return removed
    }

    private static func count(_ rows: PostgresRowSequence) async throws -> Int {
        var count = 0
        for try await removed in rows.decode(Int.self) { count = removed }
        return count
    }
}
