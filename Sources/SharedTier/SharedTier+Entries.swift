package import CacheStore
package import Foundation
package import HTTPCaching
import Logging
import NIOCore
import PostgresNIO
import Synchronization

extension SharedTier {
    // MARK: Lookup

    /// Every variant of `key` in the tier, verified and opened; empty on a miss, in an outage,
    /// or when the database fails or is slow. Marks them used (least-recently-used order) a
    /// moment later, with others (``markUsed(_:)``).
    /// A row that does not verify (damaged, another key, sealed with another encryption key)
    /// is left out.
    package func variants(for key: CacheKey) async -> [OpenedEntry] {
        let digest = ByteBuffer(bytes: codec.keyDigest(for: key))
        // Before the query: a purge sent while it runs still keeps its rows out of this answer.
        let unsent = pendingUnsentPurges
        guard let rows = await lookups.rows(for: digest, query: { [self] in await lookUp($0) }, none: []) else { return [] }
        if !rows.isEmpty { markUsed(rows.map(\.0)) }
        let opened = rows.compactMap { id, metadata, body -> OpenedEntry? in
            do {
                return try codec.open(
                    id: Array(id.readableBytesView), metadata: Array(metadata.readableBytesView), body: Array(body.readableBytesView),
                    for: key)
            } catch {
                logger.warning("shared tier entry left out", metadata: ["key": "\(key)", "reason": "\(error)"])
                return nil
            }
        }
        // What this instance purged while the tier was down is still in it: not served here.
        return unsent.isEmpty ? opened : opened.filter { !isCovered($0, by: unsent) }
    }

    /// Each digest's rows (id, metadata, body), in one query; `nil` when it failed. A row
    /// without a body of its metadata's version (a write in between) is left out, as if not there.
    func lookUp(_ digests: [ByteBuffer]) async -> [ByteBuffer: [LookupRow]]? {
        await attempt("lookup") { client -> [ByteBuffer: [LookupRow]] in
            var found: [ByteBuffer: [LookupRow]] = [:]
            if digests.count == 1 {
                for try await (id, metadata, body) in try await client.execute(LookupStatement(digest: digests[0])) {
                    if let body { found[digests[0], default: []].append((id, metadata, body)) }
                }
            } else {
                for try await (digest, id, metadata, body) in try await client.execute(BatchLookupStatement(digests: digests)) {
                    if let body { found[digest, default: []].append((id, metadata, body)) }
                }
            }
            return found
        }
    }

    // MARK: Writing, in the background

    /// Writes a stored response and its tags to the tier in the background; the caller never
    /// waits. Returns at once; dropped when too many writes are in flight.
    package func store(_ stored: StoredResponse, body: [UInt8], created: Date, freshUntil: Date?, expiresAt: Date?, tags: [String] = []) {
        writes.start(limit: configuration.maximumPendingWrites) { [self] in
            await write(stored, body: body, created: created, freshUntil: freshUntil, expiresAt: expiresAt, tags: tags)
        }
    }

    /// Writes the metadata of a response a 304 freshened, in the background: when the tier
    /// holds the same body for the variant, only its metadata row changes (its tags stay);
    /// otherwise the whole entry is written with `tags`.
    package func freshen(_ stored: StoredResponse, body: [UInt8], created: Date, freshUntil: Date?, expiresAt: Date?, tags: [String] = []) {
        writes.start(limit: configuration.maximumPendingWrites) { [self] in
            let sealed: SealedEntry
            do {
                sealed = try codec.seal(stored, body: body, created: created, freshUntil: freshUntil, expiresAt: expiresAt, metadataOnly: true)
            } catch {
                return logger.warning("shared tier cannot seal an entry", metadata: ["reason": "\(error)"])
            }
            let id = ByteBuffer(bytes: sealed.id)
            let metadata = ByteBuffer(bytes: sealed.metadata)
            let (bodyID, size) = (sealed.bodyID, sealed.size)
            let updated = await attempt("freshen") { client -> Bool in
                try await client.perform(
                    """
                    UPDATE cachescope_entries SET metadata = \(metadata), size = \(size), last_access = now()
                    WHERE id = \(id) AND body_id = \(bodyID) RETURNING id
                    """) > 0
            }
            if updated == false { await write(stored, body: body, created: created, freshUntil: freshUntil, expiresAt: expiresAt, tags: tags) }
        }
    }

    /// Waits until the writes started so far, and the marks of entries read so far, have
    /// reached the database (or given up).
    package func finishWrites() async {
        await flushTouches()
        await writes.drain()
    }

    // MARK: Least recently used

    /// How long after an entry is read it is marked used, with the others read meanwhile: 1 s.
    static let touchDelay: Duration = .seconds(1)

    /// The most entries one statement marks: 500.
    static let touchBatch = 500

    /// Marks entries used, ``touchDelay`` from now, with every other read by then.
    func markUsed(_ ids: [ByteBuffer]) {
        touches.add(ids) { [self] in await touchLater() }
    }

    /// The scheduled task's work: waits, writes, and schedules itself again if more came.
    private func touchLater() async {
        try? await Task.sleep(for: Self.touchDelay)
        guard touches.beginWriting() else { return }  // closed: shutdown writes them
        await flushTouches()
        touches.endWriting { [self] in await touchLater() }
    }

    /// Writes the last use of every entry read and not yet marked, in statements of at most
    /// ``touchBatch`` rows. Best effort: rows another statement holds are skipped (`SKIP
    /// LOCKED`, and in `id` order, so two markers never deadlock), and a failure is logged,
    /// not counted as an outage — a lost mark only makes eviction's order a little less exact.
    func flushTouches() async {
        let ids = touches.take()
        guard !ids.isEmpty, !health.isFailing else { return }
        let client = client
        for start in stride(from: 0, to: ids.count, by: Self.touchBatch) {
            let batch = Array(ids[start..<min(start + Self.touchBatch, ids.count)])
            do {
                try await QueryDeadline.run(within: configuration.queryTimeout) {
                    try await client.perform(
                        """
                        UPDATE cachescope_entries SET last_access = now() WHERE id IN (
                            SELECT id FROM cachescope_entries WHERE id = ANY(\(batch)) ORDER BY id FOR UPDATE SKIP LOCKED)
                        """)
                }
            } catch {
                logger.debug("shared tier: entries read not marked used", metadata: ["entries": "\(batch.count)", "reason": "\(Self.describe(error))"])
                return
            }
        }
    }

    /// One entry, metadata, body and tags, in one statement; the body row is rewritten only
    /// when it holds another body — or, unencrypted, other bytes of this one (damaged: every
    /// reader left it out, and nothing else would ever repair it) — and the tags the entry no
    /// longer carries are deleted.
    /// Then, from time to time (``CapacityCheckSchedule``), evicts if the table is over its bound.
    private func write(_ stored: StoredResponse, body: [UInt8], created: Date, freshUntil: Date?, expiresAt: Date?, tags: [String]) async {
        let sealed: SealedEntry
        do {
            sealed = try codec.seal(stored, body: body, created: created, freshUntil: freshUntil, expiresAt: expiresAt)
        } catch {
            return logger.warning("shared tier cannot seal an entry", metadata: ["reason": "\(error)"])
        }
        guard sealed.size <= configuration.capacity else { return }
        let id = ByteBuffer(bytes: sealed.id)
        let digest = ByteBuffer(bytes: sealed.keyDigest)
        let metadata = ByteBuffer(bytes: sealed.metadata)
        let sealedBody = ByteBuffer(bytes: sealed.body)
        let (bodyID, size) = (sealed.bodyID, sealed.size)
        let tagDigests = codec.tagDigests(for: tags, of: stored.key).map { ByteBuffer(bytes: $0) }
        // A plain body's bytes are compared, so a damaged copy is replaced; a sealed one's never
        // equal (a random nonce each time), and comparing would rewrite every body on every store.
        let comparesBodies = !codec.isEncrypted(stored.key)
        let written = await attempt("store", within: Self.writeTimeout(bytes: size, base: configuration.queryTimeout)) { client in
            try await client.perform(
                """
                WITH entry AS (
                    INSERT INTO cachescope_entries (id, key_digest, metadata, body_id, size, last_access)
                    VALUES (\(id), \(digest), \(metadata), \(bodyID), \(size), now())
                    ON CONFLICT (id) DO UPDATE SET key_digest = EXCLUDED.key_digest, metadata = EXCLUDED.metadata,
                        body_id = EXCLUDED.body_id, size = EXCLUDED.size, last_access = now()
                    RETURNING id),
                body AS (
                    INSERT INTO cachescope_bodies (id, body_id, body) SELECT id, \(bodyID), \(sealedBody) FROM entry
                    ON CONFLICT (id) DO UPDATE SET body_id = EXCLUDED.body_id, body = EXCLUDED.body
                    WHERE cachescope_bodies.body_id <> EXCLUDED.body_id OR (\(comparesBodies) AND cachescope_bodies.body <> EXCLUDED.body)),
                untagged AS (DELETE FROM cachescope_tags WHERE id = \(id) AND NOT (tag = ANY(\(tagDigests))))
                INSERT INTO cachescope_tags (tag, id) SELECT t.tag, entry.id FROM entry, unnest(\(tagDigests)::bytea[]) AS t(tag)
                ON CONFLICT DO NOTHING
                """)
            return true
        }
        if written == true, capacityChecks.withLock({ $0.wrote(size) }) { await evictIfOverCapacity() }
    }

    /// How long a write of `bytes` may take: the query timeout, and 1 ms more per 10 KB it
    /// carries (10 MB a second). Under the query timeout alone, 12 MB bodies timed out on a
    /// healthy database and each started an outage, in which every instance skipped the tier.
    static func writeTimeout(bytes: Int, base: Duration) -> Duration {
        base + .milliseconds(bytes / 10_000)
    }

    // MARK: Eviction

    /// Removes the least recently used entries while the entries' total size is over the
    /// capacity — those it takes to get under it, at most `evictionBatchSize` a round (a
    /// round used to take a whole batch however small the excess: one write past a 256 MiB
    /// tier of 12 MB bodies emptied it); one pass at a time per instance, at most 1,000
    /// rounds (a pass that fails or stops there leaves ``CapacityCheckSchedule`` due).
    func evictIfOverCapacity() async {
        guard evicting.withLock({ running in
            defer { running = true }
            return !running
        }) else { return }
        defer { evicting.withLock { $0 = false } }
        capacityChecks.withLock { $0.looking() }
        let (capacity, batch) = (configuration.capacity, configuration.evictionBatchSize)
        for _ in 0..<1_000 {
            let removed = await attempt("eviction") { client -> Int in
                try await client.perform(
                    """
                    WITH total AS (SELECT coalesce(sum(size), 0) AS bytes FROM cachescope_entries),
                    oldest AS (
                        SELECT id, sum(size) OVER (ORDER BY last_access, id ROWS UNBOUNDED PRECEDING) - size AS before
                        FROM cachescope_entries ORDER BY last_access, id LIMIT \(batch)),
                    victims AS (SELECT id FROM oldest, total WHERE total.bytes - oldest.before > \(capacity)),
                    gone AS (DELETE FROM cachescope_entries WHERE id IN (SELECT id FROM victims) RETURNING id)
                    DELETE FROM cachescope_bodies WHERE id IN (SELECT id FROM gone) RETURNING id
                    """)
            }
            guard let removed else { return capacityChecks.withLock { $0.unfinished() } }
            guard removed > 0 else { return }
            logger.debug("shared tier evicted", metadata: ["entries": "\(removed)"])
        }
        // Still over after the last round: the next write goes on.
        capacityChecks.withLock { $0.unfinished() }
    }
}
