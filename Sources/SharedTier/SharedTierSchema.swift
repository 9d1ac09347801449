import Logging
import PostgresNIO

/// The tier's tables, created and migrated by the program: `cachescope_schema` holds the
/// version, and each migration after it runs once, under an advisory lock so that instances
/// starting together migrate once.
///
/// ```
/// cachescope_entries  id bytea PK (storage key) · key_digest bytea (primary key's digest, indexed)
///                     metadata bytea (sealed head) · body_id bigint · size bigint · last_access timestamptz (indexed)
/// cachescope_bodies   id bytea PK (its entry's id) · body_id bigint · body bytea (sealed)
/// cachescope_tags     tag bytea (the tag's digest) · id bytea → cachescope_entries, ON DELETE CASCADE · PK (tag, id)
/// ```
/// Metadata and body are apart so a 304 rewrites the metadata row alone; the lookup reads a
/// body by `id` and `body_id`, so a body is only ever read with the metadata that names it.
enum SharedTierSchema {
    /// Each migration's statements; version N is after `migrations[N - 1]` ran.
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE cachescope_entries (
                id bytea PRIMARY KEY, key_digest bytea NOT NULL, metadata bytea NOT NULL,
                body_id bigint NOT NULL, size bigint NOT NULL, last_access timestamptz NOT NULL DEFAULT now())
            """,
            "CREATE INDEX cachescope_entries_key ON cachescope_entries (key_digest)",
            "CREATE INDEX cachescope_entries_lru ON cachescope_entries (last_access)",
            "CREATE TABLE cachescope_bodies (id bytea PRIMARY KEY, body_id bigint NOT NULL, body bytea NOT NULL)",
        ],
        // 2: tags (surrogate keys), removed with their entry by the foreign key.
        [
            """
            CREATE TABLE cachescope_tags (
                tag bytea NOT NULL, id bytea NOT NULL REFERENCES cachescope_entries (id) ON DELETE CASCADE, PRIMARY KEY (tag, id))
            """,
            "CREATE INDEX cachescope_tags_entry ON cachescope_tags (id)",
        ],
    ]

    /// The version this program writes.
    static var currentVersion: Int { migrations.count }

    /// An arbitrary constant naming the advisory lock migrations hold.
    private static let lockID = 0x4353_5348_5449_4552  // "CSSHTIER"

    /// Brings the schema to ``currentVersion``.
    static func migrate(_ client: PostgresClient, logger: Logger, url: String) async throws(SharedTierError) {
        let found: Int
        do {
            found = try await client.withTransaction(logger: logger) { connection -> Int in
                try await connection.perform("SELECT pg_advisory_xact_lock(\(lockID))", logger: logger)
                try await connection.perform("CREATE TABLE IF NOT EXISTS cachescope_schema (version integer NOT NULL)", logger: logger)
                var found = 0
                for try await version in try await connection.query(
                    "SELECT coalesce(max(version), 0) FROM cachescope_schema", logger: logger
                ).decode(Int.self) {
                    found = version
                }
                guard found <= currentVersion else { return found }
                for version in (found + 1)..<(currentVersion + 1) {
                    for statement in migrations[version - 1] {
                        try await connection.perform(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.perform("INSERT INTO cachescope_schema (version) VALUES (\(version))", logger: logger)
                    logger.info("shared tier schema migrated", metadata: ["version": "\(version)"])
                }
                return found
            }
        } catch {
            // The hint only when PostgreSQL said the user may not (SQLSTATE 42501): a read-only
            // server or a full disk needs something else.
            let denied = SharedTier.sqlState(of: error) == "42501"
            throw .migrationFailed(url, reason: SharedTier.describe(error) + (denied ? "; the user needs CREATE on the database" : ""))
        }
        if found > currentVersion { throw .schemaTooNew(found: found, supported: currentVersion) }
    }
}
