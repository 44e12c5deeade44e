import Foundation
import GRDB

/// The cache database's tables, created and upgraded by a GRDB migrator.
///
/// - `variant`: one row per stored variant. `key_digest` stands for (partition, method, url)
///   and `vary_digest` for the sorted `Vary` values; the pair is unique. `partition_digest`
///   finds a user's rows. `payload` is the encoded (and, with a key, sealed) key and response;
///   `cost` is its byte count. `stored_at` and `last_used_at` are seconds since 1970 from the
///   storage's clock.
/// - `variant_by_last_use`: the index the LRU eviction walks, in (`last_used_at`, `id`) order
///   (SQLite keeps the row id at the end of every index entry).
/// - `variant_prefix`: a digest of every URL prefix a variant lies under (`CachePrefix`),
///   so that ``SQLiteCacheStorage/removeAll(under:)`` finds a collection's rows by index without
///   reading payloads; a trigger removes a variant's prefixes with it.
/// - `cache_usage`: one row with the total cost and count, kept exact by triggers inside the
///   same transactions that change `variant`, so the budget check reads one row, not the table.
/// - `digest_secret`: one row, the random secret that keys the cache's credential digests
///   (`CredentialDigest`) when the storage has no encryption key to derive it from.
enum CacheSchema {
    /// The migrator that brings a database to the current schema.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE variant (
                    id INTEGER PRIMARY KEY,
                    key_digest BLOB NOT NULL,
                    vary_digest BLOB NOT NULL,
                    partition_digest BLOB NOT NULL,
                    payload BLOB NOT NULL,
                    cost INTEGER NOT NULL,
                    stored_at REAL NOT NULL,
                    last_used_at REAL NOT NULL,
                    UNIQUE (key_digest, vary_digest)
                );
                CREATE INDEX variant_by_partition ON variant (partition_digest);
                CREATE INDEX variant_by_last_use ON variant (last_used_at);
                CREATE TABLE cache_usage (
                    id INTEGER PRIMARY KEY CHECK (id = 0),
                    bytes INTEGER NOT NULL,
                    entries INTEGER NOT NULL
                );
                INSERT INTO cache_usage (id, bytes, entries) VALUES (0, 0, 0);
                CREATE TRIGGER variant_added AFTER INSERT ON variant BEGIN
                    UPDATE cache_usage SET bytes = bytes + NEW.cost, entries = entries + 1;
                END;
                CREATE TRIGGER variant_removed AFTER DELETE ON variant BEGIN
                    UPDATE cache_usage SET bytes = bytes - OLD.cost, entries = entries - 1;
                END;
                """)
        }
        migrator.registerMigration("v2: url prefixes") { db in
            // Rows stored before this version have no prefixes and could not be invalidated
            // by one: a cache may drop what it holds, so they go.
            try db.execute(sql: """
                DELETE FROM variant;
                CREATE TABLE variant_prefix (
                    variant_id INTEGER NOT NULL,
                    prefix_digest BLOB NOT NULL
                );
                CREATE INDEX variant_prefix_by_digest ON variant_prefix (prefix_digest);
                CREATE INDEX variant_prefix_by_variant ON variant_prefix (variant_id);
                CREATE TRIGGER variant_prefixes_removed AFTER DELETE ON variant BEGIN
                    DELETE FROM variant_prefix WHERE variant_id = OLD.id;
                END;
                """)
        }
        migrator.registerMigration("v3: digest secret") { db in
            // Partitions and credential `Vary` values were unkeyed digests before this version;
            // keyed ones never match them, so those rows go.
            var generator = SystemRandomNumberGenerator()
            let secret = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
            try db.execute(sql: "DELETE FROM variant")
            try db.execute(sql: "CREATE TABLE digest_secret (id INTEGER PRIMARY KEY CHECK (id = 0), secret BLOB NOT NULL)")
            try db.execute(sql: "INSERT INTO digest_secret (id, secret) VALUES (0, ?)", arguments: [secret])
        }
        return migrator
    }

    /// The secret stored by the "v3" migration.
    static func digestSecret(in database: DatabasePool) throws -> [UInt8] {
        guard let secret = try database.read({ try Data.fetchOne($0, sql: "SELECT secret FROM digest_secret WHERE id = 0") }), secret.count >= 16 else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "the cache's digest secret is missing")
        }
        return Array(secret)
    }
}
