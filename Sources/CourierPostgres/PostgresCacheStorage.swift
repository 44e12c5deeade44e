public import Courier
public import Crypto
import Foundation
import PostgresNIO

/// The HTTP cache's storage in PostgreSQL, shared by every process of a fleet: what one
/// process stored, the others read, and an invalidation one makes, all see.
///
/// ```swift
/// let storage = try await PostgresCacheStorage(database: database, maxBytes: 256 << 20, encryptionKey: key)
/// configuration.cache = HTTPCache(storage: storage)
/// ```
///
/// It keeps the cache's guarantees: one user's responses stay in that user's partition; rows
/// are found by keyed digests of their key, partition, `Vary` values and URL prefixes, never by
/// the URL itself; with an encryption key, payloads are sealed with AES-GCM and the digests are
/// keyed by it; the total stays within ``maxBytes`` (the least recently used go first), counted
/// exactly in the same transactions that change the rows. The cache's credential-digest secret
/// is derived from the encryption key, or kept in the database for every process to share.
///
/// `Sendable`: a `final class` whose stored properties are immutable and `Sendable`.
public final class PostgresCacheStorage: CacheStorage {
    /// The database.
    public let database: PostgresDatabase
    /// The cache's name: several can share one database.
    public let name: String
    /// The most bytes of payload kept.
    public let maxBytes: Int
    /// The secret that keys the cache's credential digests, the same in every process.
    public let digestSecret: [UInt8]?
    private let sealing: RowSealing
    static let table = "courier_cache"
    /// How stale a row's last use may be before a read records it again (a read is not a write each time).
    static let lastUseResolution: TimeInterval = 60

    /// A stored variant: its key (checked on reading) and the response.
    private struct Payload: Codable {
        var key: CacheKey
        var response: CachedResponse
    }

    /// Opens the cache of a database.
    /// - Parameters:
    ///   - database: The database.
    ///   - name: The cache's name (`default`).
    ///   - maxBytes: The most bytes of payload kept (64 MiB).
    ///   - encryptionKey: A key that seals payloads and keys digests; `nil` stores payloads as they are.
    public init(database: PostgresDatabase, name: String = "default", maxBytes: Int = 64 << 20, encryptionKey: SymmetricKey? = nil) async throws {
        self.database = database
        self.name = name
        self.maxBytes = maxBytes
        let secret: [UInt8]
        if let encryptionKey {
            secret = RowSealing.derive(from: encryptionKey, purpose: "credential digests").withUnsafeBytes { Array($0) }
        } else {
            var generator = SystemRandomNumberGenerator()
            let candidate = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
            // The first process to open the cache picks the secret; every later one reads it.
            secret = try await database.withConnection("reading the cache's digest secret") { connection in
                try await connection.query(
                    "INSERT INTO courier_cache_secret (store, secret) VALUES (\(name), \(candidate)) ON CONFLICT DO NOTHING",
                    logger: database.logger
                )
                let stored = try await connection.query("SELECT secret FROM courier_cache_secret WHERE store = \(name)", logger: database.logger)
                    .collect().first?.decode(Data.self)
                guard let stored, stored.count >= 16 else {
                    throw PostgresStoreError(code: .unreadableRow, message: "the cache's digest secret is missing")
                }
                return Array(stored)
            }
        }
        self.digestSecret = secret
        self.sealing = RowSealing(encryptionKey: encryptionKey, digestSecret: secret)
    }

    /// The stored variants for a key, most recently stored first.
    public func variants(for key: CacheKey) async throws -> [CachedResponse] {
        let keyDigest = digest(of: key)
        let rows = try await database.withConnection("reading the cache") { [self] connection in
            try await connection.query("""
                SELECT vary_digest, row_version, payload, last_used_at FROM courier_cache
                WHERE store = \(name) AND key_digest = \(keyDigest) ORDER BY stored_at DESC
                """, logger: database.logger).collect()
        }
        var responses: [CachedResponse] = []
        var stale: [String] = []
        let now = Date()
        for row in rows {
            let (vary, version, stored, lastUsed) = try row.decode((String, Int, Data, Date).self)
            // A newer Courier's row is skipped, not misread; a damaged one or one of another key is not used.
            guard version <= PostgresSchema.rowVersion,
                  let payload = try? sealing.open(Payload.self, from: stored, rowVersion: version, table: Self.table),
                  payload.key == key else { continue }
            responses.append(payload.response)
            if now.timeIntervalSince(lastUsed) > Self.lastUseResolution { stale.append(vary) }
        }
        if !stale.isEmpty {
            let staleDigests = stale
            _ = try? await database.withConnection("recording the cache's last use") { [self] connection in
                // Rows a write holds are skipped, not waited for: a read takes no lock a write
                // could wait on (their use is recorded next time).
                try await connection.query("""
                    UPDATE courier_cache c SET last_used_at = \(now)
                    FROM (SELECT key_digest, vary_digest FROM courier_cache
                          WHERE store = \(name) AND key_digest = \(keyDigest) AND vary_digest = ANY(\(staleDigests))
                          FOR UPDATE SKIP LOCKED) t
                    WHERE c.store = \(name) AND c.key_digest = t.key_digest AND c.vary_digest = t.vary_digest
                    """, logger: database.logger)
            }
        }
        return responses
    }

    /// Stores a response, replacing the variant of the same key with the same `Vary` values,
    /// and evicts the least recently used rows past ``maxBytes``.
    public func store(_ response: CachedResponse, for key: CacheKey) async throws {
        let payload = try sealing.seal(Payload(key: key, response: response))
        let keyDigest = digest(of: key)
        let varyDigest = digest(ofVaryValues: response.varyValues)
        let partition = sealing.digest(domain: "partition", [key.partition])
        let prefixes = CachePrefix.prefixes(of: key.url).map { sealing.digest(domain: "prefix", [$0]) }
        let cost = Int64(payload.count)
        let now = Date()
        try await database.withTransaction("storing in the cache") { [self] connection in
            try await lockUsage(on: connection)
            try await deleteRows(where: "key_digest = $2 AND vary_digest = $3", [keyDigest, varyDigest], on: connection)
            guard cost <= maxBytes else { return }
            try await connection.query("""
                INSERT INTO courier_cache (store, key_digest, vary_digest, partition_digest, prefixes, cost, stored_at, last_used_at, row_version, payload)
                VALUES (\(name), \(keyDigest), \(varyDigest), \(partition), \(prefixes), \(cost), \(now), \(now), \(PostgresSchema.rowVersion), \(payload))
                """, logger: database.logger)
            try await connection.query("""
                INSERT INTO courier_cache_usage (store, bytes, entries) VALUES (\(name), \(cost), 1)
                ON CONFLICT (store) DO UPDATE SET bytes = courier_cache_usage.bytes + EXCLUDED.bytes, entries = courier_cache_usage.entries + 1
                """, logger: database.logger)
            try await evict(sparing: keyDigest, varyDigest, on: connection)
        }
    }

    /// Removes every variant stored for a key.
    public func remove(_ key: CacheKey) async throws {
        let keyDigest = digest(of: key)
        try await database.withTransaction("removing from the cache") { [self] connection in
            try await lockUsage(on: connection)
            try await deleteRows(where: "key_digest = $2", [keyDigest], on: connection)
        }
    }

    /// Removes every response of one partition, or of all when `nil`.
    public func removeAll(partition: String?) async throws {
        try await database.withTransaction("clearing the cache") { [self] connection in
            try await lockUsage(on: connection)
            if let partition {
                try await deleteRows(where: "partition_digest = $2", [sealing.digest(domain: "partition", [partition])], on: connection)
            } else {
                try await deleteRows(where: "true", [], on: connection)
            }
        }
    }

    /// Removes every response, in every partition, under a URL prefix: every process sees it.
    public func removeAll(under prefix: String) async throws {
        let prefixDigest = sealing.digest(domain: "prefix", [CachePrefix.normalized(prefix)])
        try await database.withTransaction("invalidating the cache") { [self] connection in
            try await lockUsage(on: connection)
            try await deleteRows(where: "prefixes @> ARRAY[$2]::text[]", [prefixDigest], on: connection)
        }
    }

    /// The bytes and rows the cache holds.
    public func usage() async throws -> (bytes: Int, entries: Int) {
        try await database.withConnection("reading the cache's usage") { [self] connection in
            let row = try await connection.query(
                "SELECT bytes, entries FROM courier_cache_usage WHERE store = \(name)", logger: database.logger
            ).collect().first
            guard let row else { return (0, 0) }
            let (bytes, entries) = try row.decode((Int, Int).self)
            return (bytes, entries)
        }
    }

    // MARK: - Rows

    private func digest(of key: CacheKey) -> String {
        sealing.digest(domain: "key", [key.partition, key.method, key.url])
    }

    private func digest(ofVaryValues values: [String: String?]) -> String {
        sealing.digest(domain: "vary", values.sorted { $0.key < $1.key }.flatMap { name, value in [name, value.map { "=" + $0 } ?? "absent"] })
    }

    /// Takes the cache's usage row (made if missing) for the rest of the transaction, before any
    /// variant's row: every write to the cache takes its locks in that order, and a read's
    /// record of use waits for no lock, so two processes never wait on each other in a cycle;
    /// two stores of the same variant go one after the other (the second replaces the first).
    private func lockUsage(on connection: PostgresConnection) async throws {
        try await connection.query("""
            INSERT INTO courier_cache_usage (store, bytes, entries) VALUES (\(name), 0, 0)
            ON CONFLICT (store) DO UPDATE SET bytes = courier_cache_usage.bytes
            """, logger: database.logger)
    }

    /// Deletes rows matching a condition (whose binds start at `$2`; `$1` is the store) and
    /// takes them off the usage count in the same transaction.
    private func deleteRows(where condition: String, _ values: [String], on connection: PostgresConnection) async throws {
        var bindings = PostgresBindings()
        bindings.append(name)
        for value in values { bindings.append(value) }
        try await connection.query(PostgresQuery(unsafeSQL: """
            WITH gone AS (DELETE FROM courier_cache WHERE store = $1 AND \(condition) RETURNING cost)
            UPDATE courier_cache_usage SET bytes = bytes - (SELECT coalesce(sum(cost), 0) FROM gone),
                entries = entries - (SELECT count(*) FROM gone)
            WHERE store = $1
            """, binds: bindings), logger: database.logger)
    }

    /// Removes the least recently used rows until the total fits, sparing the row just stored.
    private func evict(sparing keyDigest: String, _ varyDigest: String, on connection: PostgresConnection) async throws {
        while true {
            let bytes = try await connection.query(
                "SELECT bytes FROM courier_cache_usage WHERE store = \(name) FOR UPDATE", logger: database.logger
            ).collect().first?.decode(Int64.self) ?? 0
            guard bytes > maxBytes else { return }
            let removed = try await connection.query("""
                WITH victims AS (
                    SELECT key_digest, vary_digest FROM courier_cache
                    WHERE store = \(name) AND NOT (key_digest = \(keyDigest) AND vary_digest = \(varyDigest))
                    ORDER BY last_used_at LIMIT 16
                ), gone AS (
                    DELETE FROM courier_cache c USING victims v
                    WHERE c.store = \(name) AND c.key_digest = v.key_digest AND c.vary_digest = v.vary_digest
                    RETURNING c.cost
                )
                UPDATE courier_cache_usage SET bytes = bytes - (SELECT coalesce(sum(cost), 0) FROM gone),
                    entries = entries - (SELECT count(*) FROM gone)
                WHERE store = \(name)
                RETURNING (SELECT count(*) FROM gone)
                """, logger: database.logger).collect().first?.decode(Int64.self) ?? 0
            if removed == 0 { return }
        }
    }
}
