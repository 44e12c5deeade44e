public import Courier
public import Crypto
public import Foundation
import GRDB
import Synchronization

/// Keeps cached responses in a SQLite database on disk, evicting the least recently used
/// past a byte budget, optionally encrypted with AES-GCM.
///
/// ```swift
/// let storage = try SQLiteCacheStorage(
///     url: cachesDirectory.appendingPathComponent("Courier/responses.sqlite"),
///     maxBytes: 128 << 20,
///     encryptionKey: keyFromTheKeychain
/// )
/// ```
///
/// ## Files
/// The folder is created with mode 0700 if it does not exist; the database and its `-wal`
/// and `-shm` files are mode 0600 whatever the umask. A file that is not a database is
/// renamed `NAME.corrupt-SECONDS` and a fresh database takes its place; a row that does not
/// decrypt or decode is deleted and read as a miss. Neither ever crashes the app.
///
/// ## What is stored
/// Each row holds digests for lookup (of the partition, method and URL; of the partition; of
/// the `Vary` values) and a payload: the plain key and the response in a compact binary
/// encoding. With an `encryptionKey` the payload is sealed with AES-GCM and the digests are
/// keyed (HMAC), so neither bodies nor visited URLs can be read from the file.
///
/// ## Durability
/// The database runs in WAL mode with `synchronous = NORMAL`: a write is atomic, but the
/// last writes before a power loss or OS crash may be lost (never half-written). Last-use
/// times read by ``variants(for:)`` are applied with the next write, so the most recent ones
/// may be lost when the process ends; eviction order is then slightly less exact. For a
/// cache both are acceptable.
///
/// ## Concurrency
/// A GRDB `DatabasePool`: lookups run on reader connections, in parallel with each other and
/// with a write in progress; writes are serialized. A lookup (one indexed `SELECT` of a few
/// rows, with a prepared statement) runs synchronously on the calling thread: it takes tens
/// of microseconds, less than the two thread hops an asynchronous read would cost. It never
/// waits for a writer (WAL readers do not block), only for a free reader connection when
/// every one is busy. Writes are asynchronous. A `final class` whose only mutable state
/// (pending last-use times) sits in a `Mutex`, which makes it `Sendable`.
public final class SQLiteCacheStorage: CacheStorage {
    /// How many pending last-use times make a lookup apply them at once.
    private static let lastUseFlushThreshold = 256

    private let database: DatabasePool
    private let protection: EntryProtection
    private let clock: any CourierClock
    private let pendingLastUses = Mutex<[Int64: Double]>([:])

    /// The most bytes kept: the sum of the stored payloads' sizes.
    public let maxBytes: Int
    /// The secret that keys the cache's credential digests: derived from the encryption key
    /// when there is one (so it is stored nowhere), else the random secret kept in the
    /// database, as private as the entries beside it (an owner-only file).
    public let digestSecret: [UInt8]?
    /// The database file.
    public let url: URL

    /// Opens (or creates) a cache database.
    /// - Parameters:
    ///   - url: The database file; its folder is created (mode 0700) if needed.
    ///   - maxBytes: The byte budget (64 MiB by default), counted as stored payload bytes:
    ///     body, headers, key and, when encrypting, 28 bytes of nonce and tag.
    ///   - encryptionKey: A key to seal payloads with (AES-GCM) and to key the lookup digests;
    ///     `nil` stores payloads unencrypted. Opening a database with another key finds
    ///     nothing that was stored with the first; those rows age out through eviction.
    ///   - clock: The source of `stored_at` and `last_used_at`.
    /// - Throws: ``SQLiteCacheFileError`` when the folder or file cannot be made owner-only,
    ///   or GRDB's `DatabaseError` when the database cannot be opened (a file that is not a
    ///   database is moved aside and replaced, not thrown).
    public init(url: URL, maxBytes: Int = 64 << 20, encryptionKey: SymmetricKey? = nil, clock: any CourierClock = SystemClock()) throws {
        let file = CacheDatabaseFile(url: url)
        try file.createIfMissing()
        do {
            database = try file.openPool()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT {
            try file.moveAside(at: clock.date)
            try file.createIfMissing()
            database = try file.openPool()
        }
        try file.restrictPermissions()
        self.url = url
        self.maxBytes = maxBytes
        self.protection = EntryProtection(encryptionKey: encryptionKey)
        self.digestSecret = try EntryProtection.credentialDigestSecret(from: encryptionKey) ?? CacheSchema.digestSecret(in: database)
        self.clock = clock
    }

    /// The variants for a key, most recently stored first; marks them used now.
    ///
    /// A row that does not decrypt or decode is deleted and left out.
    /// - Parameter key: The key.
    /// - Returns: The variants, or an empty array on a miss.
    public func variants(for key: CacheKey) async throws -> [CachedResponse] {
        let keyDigest = protection.digest(of: key)
        let rows = try rows(forKey: keyDigest)
        guard !rows.isEmpty else { return [] }
        var responses: [CachedResponse] = []
        var usedIDs: [Int64] = []
        var damagedIDs: [Int64] = []
        for row in rows {
            if let payload = try? VariantPayload(decoding: protection.open(row.payload)), payload.key == key {
                responses.append(payload.response)
                usedIDs.append(row.id)
            } else {
                damagedIDs.append(row.id)
            }
        }
        if !damagedIDs.isEmpty {
            try await database.write { [damagedIDs] db in try VariantTable.delete(ids: damagedIDs, in: db) }
        }
        let pending = recordLastUse(of: usedIDs)
        if pending >= Self.lastUseFlushThreshold {
            try await database.write { db in try self.applyPendingLastUses(in: db) }
        }
        return responses
    }

    /// Stores a response, replacing the variant of the same key with the same `Vary` values,
    /// then evicts the least recently used rows (never this one) until the budget holds.
    ///
    /// A response whose payload is larger than the whole budget is not stored; the variant it
    /// would have replaced is removed, since it is older than what the server just sent.
    /// - Parameters:
    ///   - response: The response.
    ///   - key: Its key.
    public func store(_ response: CachedResponse, for key: CacheKey) async throws {
        let payload = try protection.seal(VariantPayload(key: key, response: response).encoded())
        let row = VariantTable.NewRow(
            keyDigest: protection.digest(of: key),
            prefixDigests: CachePrefix.prefixes(of: key.url).map(protection.digest(ofPrefix:)),
            varyDigest: protection.digest(ofVaryValues: response.varyValues),
            partitionDigest: protection.digest(ofPartition: key.partition),
            payload: payload,
            now: clock.date.timeIntervalSince1970
        )
        let maxBytes = maxBytes
        try await database.write { db in
            try self.applyPendingLastUses(in: db)
            guard row.payload.count <= maxBytes else {
                try VariantTable.deleteVariant(keyDigest: row.keyDigest, varyDigest: row.varyDigest, in: db)
                return
            }
            let id = try VariantTable.replace(with: row, in: db)
            try VariantTable.evictLeastRecentlyUsed(toFit: maxBytes, sparing: id, in: db)
        }
    }

    /// Removes every variant stored for a key.
    /// - Parameter key: The key.
    public func remove(_ key: CacheKey) async throws {
        let keyDigest = protection.digest(of: key)
        try await database.write { db in
            try self.applyPendingLastUses(in: db)
            try VariantTable.deleteKey(keyDigest, in: db)
        }
    }

    /// Removes every response of one partition (a user's), or of all partitions when `nil`.
    /// - Parameter partition: The partition, or `nil` for everything.
    public func removeAll(partition: String?) async throws {
        let partitionDigest = partition.map { protection.digest(ofPartition: $0) }
        try await database.write { db in
            try self.applyPendingLastUses(in: db)
            try VariantTable.deletePartition(partitionDigest, in: db)
        }
    }

    /// Removes every response, in every partition, whose URL lies under a prefix (see
    /// `CachePrefix`), found by the prefix's digest without reading payloads.
    /// - Parameter prefix: An absolute URL such as `https://api.example.com/api/radars`.
    public func removeAll(under prefix: String) async throws {
        let prefixDigest = protection.digest(ofPrefix: CachePrefix.normalized(prefix))
        try await database.write { db in
            try self.applyPendingLastUses(in: db)
            try VariantTable.deleteUnder(prefixDigest: prefixDigest, in: db)
        }
    }

    /// The bytes (stored payload sizes) and responses held now.
    /// - Throws: GRDB's `DatabaseError` when the database cannot be read.
    public var usage: (bytes: Int, entries: Int) {
        get throws {
            try database.read { db in try VariantTable.usage(in: db) }
        }
    }

    /// The rows of a key, read synchronously on the calling thread (see "Concurrency").
    private func rows(forKey keyDigest: Data) throws -> [VariantTable.StoredRow] {
        try database.read { db in try VariantTable.rows(forKey: keyDigest, in: db) }
    }

    /// Notes that rows were read now.
    /// - Returns: How many last-use times are pending.
    private func recordLastUse(of ids: [Int64]) -> Int {
        let now = clock.date.timeIntervalSince1970
        return pendingLastUses.withLock { pending in
            for id in ids { pending[id] = now }
            return pending.count
        }
    }

    /// Writes the pending last-use times inside the caller's write transaction.
    private func applyPendingLastUses(in db: Database) throws {
        let lastUses = pendingLastUses.withLock { pending in
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
        try VariantTable.recordLastUses(lastUses, in: db)
    }
}

extension SQLiteCacheStorage {
    /// Runs SQL on the writer connection. For tests that damage rows on purpose; not API.
    func executeRawSQL(_ sql: String) async throws {
        try await database.write { db in try db.execute(sql: sql) }
    }
}
