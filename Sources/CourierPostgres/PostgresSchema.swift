import Logging
import PostgresNIO

/// Courier's tables in PostgreSQL, made and upgraded by numbered migrations.
///
/// - `courier_schema`: one row, the version the tables are at.
/// - `courier_outbox`: the outbox's writes, one row each (``PostgresQueueStorage``). `seq`
///   orders them; `group_key` is the account and named queue they are delivered in order within;
///   `item` is the encoded write; `target` a keyed digest of its URL (from version 2).
///   `courier_outbox_groups` holds each group's lease.
/// - `courier_cache`: the shared HTTP cache's variants (``PostgresCacheStorage``), found by
///   keyed digests (`key_digest`, `vary_digest`, `partition_digest`, and `prefixes` for
///   collection invalidation); `courier_cache_usage` keeps each cache's byte count exact in the
///   same transactions; `courier_cache_secret` the secret its digests are keyed with.
/// - `courier_credentials`: one credential per account, with a `version` every save increases
///   (``PostgresCredentialStore``).
/// - `courier_quota`: one ledger per quota (``PostgresQuotaStore``).
///
/// Every row that holds an encoded value carries `row_version`, the format it was written in:
/// a row from a newer Courier is refused (``PostgresStoreError/Code/rowTooNew``), never misread.
enum PostgresSchema {
    /// The format of the encoded values this Courier writes.
    static let rowVersion = 1

    /// The key of the advisory lock migrations run under ("Courier" in ASCII).
    static let migrationLock: Int64 = 0x436F_7572_6965_72

    /// Each version's statements, in order: version N is `migrations[N - 1]`.
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE courier_outbox (
                store text NOT NULL,
                id text NOT NULL,
                seq bigserial NOT NULL,
                group_key text NOT NULL,
                state text NOT NULL,
                next_attempt_at timestamptz NOT NULL,
                row_version integer NOT NULL,
                item bytea NOT NULL,
                PRIMARY KEY (store, id)
            )
            """,
            "CREATE INDEX courier_outbox_pending ON courier_outbox (store, group_key, seq) WHERE state = 'pending'",
            "CREATE INDEX courier_outbox_order ON courier_outbox (store, seq)",
            """
            CREATE TABLE courier_outbox_groups (
                store text NOT NULL,
                group_key text NOT NULL,
                leased_by text,
                leased_until timestamptz,
                PRIMARY KEY (store, group_key)
            )
            """,
            """
            CREATE TABLE courier_cache (
                store text NOT NULL,
                key_digest text NOT NULL,
                vary_digest text NOT NULL,
                partition_digest text NOT NULL,
                prefixes text[] NOT NULL,
                cost bigint NOT NULL,
                stored_at timestamptz NOT NULL,
                last_used_at timestamptz NOT NULL,
                row_version integer NOT NULL,
                payload bytea NOT NULL,
                PRIMARY KEY (store, key_digest, vary_digest)
            )
            """,
            "CREATE INDEX courier_cache_partition ON courier_cache (store, partition_digest)",
            "CREATE INDEX courier_cache_last_use ON courier_cache (store, last_used_at)",
            "CREATE INDEX courier_cache_prefixes ON courier_cache USING gin (prefixes)",
            "CREATE TABLE courier_cache_usage (store text PRIMARY KEY, bytes bigint NOT NULL, entries bigint NOT NULL)",
            "CREATE TABLE courier_cache_secret (store text PRIMARY KEY, secret bytea NOT NULL)",
            """
            CREATE TABLE courier_credentials (
                store text NOT NULL,
                account text NOT NULL,
                version bigint NOT NULL,
                row_version integer NOT NULL,
                credential bytea NOT NULL,
                PRIMARY KEY (store, account)
            )
            """,
            """
            CREATE TABLE courier_quota (
                store text NOT NULL,
                key text NOT NULL,
                row_version integer NOT NULL,
                ledger bytea NOT NULL,
                PRIMARY KEY (store, key)
            )
            """,
        ],
        // 2: a write's URL as a keyed digest, so that a live write finds the queued writes to
        // its URL without reading the outbox (rows from version 1 have none, and are read).
        [
            "ALTER TABLE courier_outbox ADD COLUMN target text",
            "CREATE INDEX courier_outbox_target ON courier_outbox (store, target) WHERE state = 'pending'",
        ],
    ]

    /// Brings the tables to ``PostgresDatabase/schemaVersion`` under an advisory lock held on
    /// this connection, so that processes starting together migrate once; each version's
    /// statements and its version number are committed together.
    static func migrate(on connection: PostgresConnection, creating: Bool, logger: Logger) async throws {
        let doing = "bringing Courier's tables to version \(migrations.count)"
        do {
            try await connection.query("SELECT pg_advisory_lock(\(migrationLock))", logger: logger)
        } catch {
            throw PostgresStoreError.query(doing, error)
        }
        do {
            try await migrateLocked(on: connection, creating: creating, logger: logger)
        } catch {
            _ = try? await connection.query("SELECT pg_advisory_unlock(\(migrationLock))", logger: logger)
            throw error is PostgresStoreError ? error : PostgresStoreError.query(doing, error)
        }
        _ = try? await connection.query("SELECT pg_advisory_unlock(\(migrationLock))", logger: logger)
    }

    private static func migrateLocked(on connection: PostgresConnection, creating: Bool, logger: Logger) async throws {
        let exists = try await connection.query("SELECT to_regclass('courier_schema') IS NOT NULL", logger: logger)
            .collect().first?.decode(Bool.self) ?? false
        var version = 0
        if exists {
            version = try await connection.query("SELECT version FROM courier_schema", logger: logger)
                .collect().first?.decode(Int.self) ?? 0
        }
        if version > migrations.count {
            throw PostgresStoreError(
                code: .schemaTooNew,
                message: "Courier's tables are at version \(version), made by a newer Courier; this one knows versions up to \(migrations.count) and will not use them"
            )
        }
        guard version < migrations.count else { return }
        guard creating else {
            throw PostgresStoreError(
                code: .schemaMissing,
                message: exists
                    ? "Courier's tables are at version \(version); this Courier needs \(migrations.count) and was told not to migrate"
                    : "the database has no Courier tables (courier_schema), and the store was told not to create them"
            )
        }
        if !exists {
            try await connection.query("CREATE TABLE courier_schema (version integer NOT NULL)", logger: logger)
            try await connection.query("INSERT INTO courier_schema (version) VALUES (0)", logger: logger)
        }
        for next in (version + 1)...migrations.count {
            try await connection.withTransaction(logger: logger) { connection in
                for statement in migrations[next - 1] {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("UPDATE courier_schema SET version = \(next)", logger: logger)
            }
        }
    }
}
