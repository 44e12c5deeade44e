public import Courier
public import Crypto
import Foundation
import PostgresNIO

/// The offline queue's storage in PostgreSQL: an outbox that any number of processes deliver
/// from at once (a `SharedQueueStorage`).
///
/// ```swift
/// let outbox = PostgresQueueStorage(database: database, lease: .seconds(30))
/// var configuration = ClientConfiguration(baseURL: intervalsURL)
/// configuration.offlineQueue = OfflineQueue(storage: outbox)
/// configuration.accounts = accounts
/// let client = APIClient(configuration: configuration, transport: transport)
///
/// var write = IntervalsEndpoints.updateWellness(day, athlete: athleteID)
/// write.options.account = athleteID
/// try await client.enqueue(write)   // delivered by whichever process claims it
/// ```
///
/// - **Claims.** A process claims whole groups of writes (one account's writes in one named
///   queue) with `FOR UPDATE SKIP LOCKED`, under a lease it renews while it delivers: two
///   processes never deliver the same group at once, so each account's writes keep their order.
/// - **Crashes.** A process killed in the middle of a delivery holds its groups only until its
///   lease ends; another then delivers them, the interrupted write again with the same
///   `Idempotency-Key`, which the server answers as it answered the first.
/// - **Waking.** Appending a write sends `NOTIFY courier_outbox`; idle processes listen and
///   start delivering at once. Their timers cover backoffs and leases.
/// - **Rows.** A write is stored as it is in memory (secrets removed before it is queued),
///   sealed with AES-GCM when an encryption key is given; a row written by a newer Courier
///   is left alone (neither delivered nor misread). Its URL is kept beside it as a digest
///   (keyed by the encryption key when there is one), so that a live write finds the writes
///   queued to its URL, by any process, without reading the outbox.
///
/// Give each `OfflineQueue` its own instance: an instance is one claimant, and giving back
/// its claims gives back all of them.
///
/// `Sendable`: a `final class` whose stored properties are immutable and `Sendable`.
public final class PostgresQueueStorage: SharedQueueStorage {
    /// The database.
    public let database: PostgresDatabase
    /// The outbox's name: several outboxes can share one database.
    public let name: String
    /// How long a claim lasts without renewal.
    public let lease: Duration
    /// This process's claim owner, unique per storage instance.
    let worker = UUID().uuidString
    let sealing: RowSealing
    let feed: ChangeFeed

    /// The `NOTIFY` channel appends are announced on; the payload is the outbox's name.
    static let channel = "courier_outbox"
    static let table = "courier_outbox"

    /// Makes the outbox of a database.
    /// - Parameters:
    ///   - database: The database.
    ///   - name: The outbox's name (`default`).
    ///   - lease: How long a claim lasts without renewal (30 seconds): how long the writes of a
    ///     process that died wait before another delivers them.
    ///   - encryptionKey: A key that seals every stored write (AES-GCM); `nil` stores them as they are.
    ///   - listenKeepAlive: How often the connection that listens for other processes' appends
    ///     is checked (15 seconds): one that does not answer within the database's operation
    ///     timeout is replaced, so that a worker never stays deaf.
    public init(
        database: PostgresDatabase, name: String = "default", lease: Duration = .seconds(30), encryptionKey: SymmetricKey? = nil,
        listenKeepAlive: Duration = .seconds(15)
    ) {
        self.database = database
        self.name = name
        self.lease = max(lease, .seconds(1))
        // Without a key the rows hold the URLs as they are: an unkeyed digest hides nothing less.
        self.sealing = RowSealing(encryptionKey: encryptionKey, digestSecret: Array("courier_outbox".utf8))
        self.feed = ChangeFeed(database: database, channel: Self.channel, payload: name, keepAlive: listenKeepAlive)
    }

    /// Stores a new write and announces it to every process.
    public func append(_ item: QueuedRequest) async throws {
        let sealed = try sealing.seal(item)
        let group = Self.groupKey(of: item)
        try await database.withTransaction("queueing a write") { [self] connection in
            // Shared with other appends to the group; a process removing the group's empty
            // lease row takes it alone (see `releaseClaims()`).
            try await connection.query("SELECT pg_advisory_xact_lock_shared(hashtextextended(\(groupLockKey(group)), 0))", logger: database.logger)
            try await connection.query("""
                INSERT INTO courier_outbox (store, id, group_key, state, next_attempt_at, row_version, item, target)
                VALUES (\(name), \(item.id), \(group), \(item.state.rawValue), \(item.nextAttemptAt), \(PostgresSchema.rowVersion), \(sealed),
                        \(target(of: item.url)))
                """, logger: database.logger)
            try await connection.query("""
                INSERT INTO courier_outbox_groups (store, group_key) VALUES (\(name), \(group)) ON CONFLICT DO NOTHING
                """, logger: database.logger)
            try await connection.query("SELECT pg_notify(\(Self.channel), \(name))", logger: database.logger)
        }
    }

    /// Replaces a stored write (its state, next attempt and record of attempts).
    public func update(_ item: QueuedRequest) async throws {
        let sealed = try sealing.seal(item)
        try await database.withConnection("updating a queued write") { [self] connection in
            try await connection.query("""
                UPDATE courier_outbox SET state = \(item.state.rawValue), next_attempt_at = \(item.nextAttemptAt),
                    row_version = \(PostgresSchema.rowVersion), item = \(sealed)
                WHERE store = \(name) AND id = \(item.id)
                """, logger: database.logger)
        }
    }

    /// Removes a write.
    public func remove(id: String) async throws {
        try await remove(ids: [id])
    }

    /// Removes several writes in one statement.
    public func remove(ids: [String]) async throws {
        guard !ids.isEmpty else { return }
        try await database.withConnection("removing queued writes") { [self] connection in
            try await connection.query("DELETE FROM courier_outbox WHERE store = \(name) AND id = ANY(\(ids))", logger: database.logger)
        }
    }

    /// The pending writes to `url`, in the order they were appended (rows a Courier before
    /// schema version 2 wrote carry no digest of their URL: they are read and compared).
    public func pendingWrites(to url: String) async throws -> [QueuedRequest] {
        let rows = try await database.withConnection("reading the outbox's writes to a URL") { [self] connection in
            try await connection.query("""
                SELECT row_version, item FROM courier_outbox
                WHERE store = \(name) AND state = 'pending' AND row_version <= \(PostgresSchema.rowVersion)
                  AND (target = \(target(of: url)) OR target IS NULL)
                ORDER BY seq
                """, logger: database.logger).collect()
        }
        return try rows.map { row in
            let (version, stored) = try row.decode((Int, Data).self)
            return try sealing.open(QueuedRequest.self, from: stored, rowVersion: version, table: Self.table)
        }.filter { $0.url == url }
    }

    /// The digest a write's URL is found by.
    func target(of url: String) -> String {
        sealing.digest(domain: "outbox.target", [name, url])
    }

    /// The advisory lock that keeps a group's lease row while a write is appended to it.
    func groupLockKey(_ group: String) -> String {
        "courier_outbox_group\u{1F}" + name + "\u{1F}" + group
    }

    /// Every write, pending and dead-lettered, in the order they were appended; rows written
    /// by a newer Courier are left out.
    public func items() async throws -> [QueuedRequest] {
        let rows = try await database.withConnection("reading the outbox") { [self] connection in
            try await connection.query("""
                SELECT row_version, item FROM courier_outbox WHERE store = \(name) AND row_version <= \(PostgresSchema.rowVersion) ORDER BY seq
                """, logger: database.logger).collect()
        }
        return try rows.map { row in
            let (version, stored) = try row.decode((Int, Data).self)
            return try sealing.open(QueuedRequest.self, from: stored, rowVersion: version, table: Self.table)
        }
    }

    /// How many rows were written by a newer Courier: kept, neither delivered nor read.
    public func rowsFromNewerVersions() async throws -> Int {
        try await database.withConnection("counting the outbox's newer rows") { [self] connection in
            try await connection.query("""
                SELECT count(*) FROM courier_outbox WHERE store = \(name) AND row_version > \(PostgresSchema.rowVersion)
                """, logger: database.logger).collect().first?.decode(Int.self) ?? 0
        }
    }

    /// Yields when any process appends a write to this outbox.
    public func changes() -> AsyncStream<Void> {
        feed.stream()
    }
}
