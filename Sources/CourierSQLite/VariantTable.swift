import Foundation
import GRDB

/// The SQL that reads and writes the `variant` table (see ``CacheSchema``).
///
/// Every function runs inside a database access that the caller opened: reads in a reader's
/// snapshot, writes in the writer's transaction.
enum VariantTable {
    /// A row as read for a lookup.
    struct StoredRow: Sendable {
        /// The row's id.
        var id: Int64
        /// The stored (possibly sealed) payload.
        var payload: Data
    }

    /// A row to insert.
    struct NewRow: Sendable {
        var keyDigest: Data
        /// Digests of the URL prefixes the variant lies under.
        var prefixDigests: [Data]
        var varyDigest: Data
        var partitionDigest: Data
        var payload: Data
        var now: Double
    }

    /// The rows for a key digest, most recently stored first.
    static func rows(forKey keyDigest: Data, in db: Database) throws -> [StoredRow] {
        let statement = try db.cachedStatement(sql: "SELECT id, payload FROM variant WHERE key_digest = ? ORDER BY stored_at DESC, id DESC")
        return try Row.fetchAll(statement, arguments: [keyDigest]).map { StoredRow(id: $0["id"], payload: $0["payload"]) }
    }

    /// Inserts a row, first deleting the variant with the same key and vary digests.
    /// - Returns: The new row's id.
    static func replace(with row: NewRow, in db: Database) throws -> Int64 {
        try deleteVariant(keyDigest: row.keyDigest, varyDigest: row.varyDigest, in: db)
        try db.execute(
            sql: """
                INSERT INTO variant (key_digest, vary_digest, partition_digest, payload, cost, stored_at, last_used_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [row.keyDigest, row.varyDigest, row.partitionDigest, row.payload, row.payload.count, row.now, row.now]
        )
        let id = db.lastInsertedRowID
        let insertPrefix = try db.cachedStatement(sql: "INSERT INTO variant_prefix (variant_id, prefix_digest) VALUES (?, ?)")
        for digest in row.prefixDigests { try insertPrefix.execute(arguments: [id, digest]) }
        return id
    }

    /// Deletes every variant that lies under a prefix digest.
    static func deleteUnder(prefixDigest: Data, in db: Database) throws {
        try db.execute(
            sql: "DELETE FROM variant WHERE id IN (SELECT variant_id FROM variant_prefix WHERE prefix_digest = ?)",
            arguments: [prefixDigest]
        )
    }

    /// Deletes the variant with these key and vary digests, if any. (A plain `DELETE`, not
    /// `INSERT OR REPLACE`: a replace's implicit delete would not fire the usage trigger.)
    static func deleteVariant(keyDigest: Data, varyDigest: Data, in db: Database) throws {
        try db.execute(sql: "DELETE FROM variant WHERE key_digest = ? AND vary_digest = ?", arguments: [keyDigest, varyDigest])
    }

    /// Deletes every variant of a key digest.
    static func deleteKey(_ keyDigest: Data, in db: Database) throws {
        try db.execute(sql: "DELETE FROM variant WHERE key_digest = ?", arguments: [keyDigest])
    }

    /// Deletes every variant of a partition digest, or every row when `nil`.
    static func deletePartition(_ partitionDigest: Data?, in db: Database) throws {
        if let partitionDigest {
            try db.execute(sql: "DELETE FROM variant WHERE partition_digest = ?", arguments: [partitionDigest])
        } else {
            try db.execute(sql: "DELETE FROM variant")
        }
    }

    /// Deletes rows by id.
    static func delete(ids: [Int64], in db: Database) throws {
        for id in ids {
            try db.execute(sql: "DELETE FROM variant WHERE id = ?", arguments: [id])
        }
    }

    /// Writes last-use times (seconds since 1970) recorded by reads; rows gone since are skipped.
    static func recordLastUses(_ lastUses: [Int64: Double], in db: Database) throws {
        guard !lastUses.isEmpty else { return }
        let statement = try db.cachedStatement(sql: "UPDATE variant SET last_used_at = max(last_used_at, ?) WHERE id = ?")
        for (id, usedAt) in lastUses {
            try statement.execute(arguments: [usedAt, id])
        }
    }

    /// Deletes the least recently used rows, never `protectedID`, until the total cost fits
    /// the budget or only the protected row is left.
    static func evictLeastRecentlyUsed(toFit maxBytes: Int, sparing protectedID: Int64, in db: Database) throws {
        var (bytes, _) = try usage(in: db)
        while bytes > maxBytes {
            let candidates = try Row.fetchAll(
                db,
                sql: "SELECT id, cost FROM variant WHERE id != ? ORDER BY last_used_at, id LIMIT 64",
                arguments: [protectedID]
            )
            guard !candidates.isEmpty else { return }
            var victims: [Int64] = []
            for candidate in candidates where bytes > maxBytes {
                victims.append(candidate["id"])
                bytes -= candidate["cost"] as Int
            }
            try delete(ids: victims, in: db)
        }
    }

    /// The total cost and number of rows.
    static func usage(in db: Database) throws -> (bytes: Int, entries: Int) {
        guard let row = try Row.fetchOne(db, sql: "SELECT bytes, entries FROM cache_usage WHERE id = 0") else { return (0, 0) }
        return (row["bytes"], row["entries"])
    }
}
