public import Courier
public import Foundation
package import GRDB
import Synchronization

/// Keeps the offline queue's writes in a SQLite database, durably: WAL mode with
/// `synchronous = FULL`, so a write the queue accepted survives a crash of the process or of
/// the machine.
///
/// ```swift
/// let queue = OfflineQueue(storage: try SQLiteQueueStorage(url: appSupport.appendingPathComponent("Courier/queue.sqlite")))
/// ```
///
/// ## Files
/// The folder is created with mode 0700 if needed; the database and its `-wal` and `-shm`
/// files are mode 0600. Nothing secret is written: the queue strips credentials before storing.
///
/// ## Group commit
/// Appends that arrive while a commit is under way are written together in the next
/// transaction, so a burst of writes costs a few disk flushes rather than one each; every
/// caller still returns only once its own item is on disk.
///
/// A `final class` whose only mutable state (the appends waiting for the next commit) sits in
/// a `Mutex`, which makes it `Sendable`.
public final class SQLiteQueueStorage: QueueStorage {
    private struct Waiting {
        var items: [(QueuedRequest, CheckedContinuation<Void, any Error>)] = []
        var isCommitting = false
    }

    private let database: DatabasePool
    private let waiting = Mutex(Waiting())
    /// The database file.
    public let url: URL

    /// Opens (or creates) a queue database.
    /// - Parameter url: The database file; its folder is created (mode 0700) if needed.
    /// - Throws: ``SQLiteCacheFileError`` when the file cannot be made owner-only, or GRDB's
    ///   `DatabaseError` when it cannot be opened.
    public init(url: URL) throws {
        let file = CacheDatabaseFile(url: url)
        try file.createIfMissing()
        var configuration = Configuration()
        configuration.label = "CourierSQLite.queue"
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        database = try DatabasePool(path: url.path, configuration: configuration)
        try Self.migrator.migrate(database)
        try file.restrictPermissions()
        self.url = url
    }

    /// Stores a new item; returns once it is on disk (see "Group commit").
    public func append(_ item: QueuedRequest) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let leads = waiting.withLock { waiting in
                waiting.items.append((item, continuation))
                defer { waiting.isCommitting = true }
                return !waiting.isCommitting
            }
            if leads { Task { await self.commitWaiting() } }
        }
    }

    /// Replaces a stored item.
    public func update(_ item: QueuedRequest) async throws {
        try await database.write { db in
            try db.execute(
                sql: """
                    UPDATE queued_write SET attempts = ?, last_error = ?, next_attempt_at = ?, state = ?,
                        dead_letter_status = ?, dead_letter_body = ? WHERE id = ?
                    """,
                arguments: [
                    item.attempts, item.lastError, item.nextAttemptAt.timeIntervalSince1970, item.state.rawValue,
                    item.deadLetterStatus, item.deadLetterBody, item.id,
                ]
            )
        }
    }

    /// Removes an item.
    public func remove(id: String) async throws {
        try await remove(ids: [id])
    }

    /// Removes several items in one transaction.
    public func remove(ids: [String]) async throws {
        guard !ids.isEmpty else { return }
        try await database.write { db in
            for id in ids { try db.execute(sql: "DELETE FROM queued_write WHERE id = ?", arguments: [id]) }
        }
    }

    /// Every item, in the order they were appended. A row that cannot be read is skipped and
    /// left in place (never deleted silently).
    public func items() async throws -> [QueuedRequest] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM queued_write ORDER BY sequence").compactMap(Self.item(from:))
        }
    }

    /// One stored item, or `nil` for a row that cannot be read. `package` for the fuzz target
    /// Fuzz/FuzzQueueRow.
    package static func item(from row: Row) -> QueuedRequest? {
        // Every column is read leniently: a value of the wrong type (a damaged or edited file)
        // reads as missing rather than stopping the process in GRDB's conversion.
        guard let id: String = value(row, "id"), let queue: String = value(row, "queue"), let method: String = value(row, "method"),
              let url: String = value(row, "url"), let key: String = value(row, "idempotency_key"),
              let state = (value(row, "state") as String?).flatMap(QueuedRequest.State.init(rawValue:)) else { return nil }
        return QueuedRequest(
            id: id, queue: queue, method: method, url: url, fields: fields(from: value(row, "fields") ?? ""),
            body: value(row, "body") ?? Data(), idempotencyKey: key,
            createdAt: plausibleDate(value(row, "created_at")), attempts: max(0, value(row, "attempts") ?? 0),
            lastError: value(row, "last_error"), nextAttemptAt: plausibleDate(value(row, "next_attempt_at")),
            state: state, deadLetterStatus: value(row, "dead_letter_status"), deadLetterBody: value(row, "dead_letter_body"),
            account: value(row, "account"), invalidates: lines(from: value(row, "invalidates") ?? ""),
            bodyIsPersonalData: value(row, "body_is_personal") ?? false
        )
    }

    /// A column's value, or `nil` when it is NULL or does not convert to `Value`.
    private static func value<Value: DatabaseValueConvertible>(_ row: Row, _ column: String) -> Value? {
        Value.fromDatabaseValue(row[column] as DatabaseValue)
    }

    /// A stored date, or the epoch (so: due now) for a value no clock could have written:
    /// missing, not finite, or thousands of years away. A damaged row is then retried
    /// rather than lost or left to make the scheduler's arithmetic trap.
    private static func plausibleDate(_ seconds: Double?) -> Date {
        guard let seconds, seconds.isFinite, abs(seconds) < 1e11 else { return Date(timeIntervalSince1970: 0) }
        return Date(timeIntervalSince1970: seconds)
    }

    /// Runs SQL on the queue's database. For tests that damage rows on purpose; not API.
    func executeRawSQL(_ sql: String) async throws {
        try await database.write { db in try db.execute(sql: sql) }
    }

    /// Header fields as lines of `name: value` (names and values hold no line breaks).
    private static func text(of fields: [QueuedRequest.Field]) -> String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// URLs, one a line (a URL holds no line break).
    private static func lines(from text: String) -> [String] {
        text.split(separator: "\n").map(String.init)
    }

    private static func fields(from text: String) -> [QueuedRequest.Field] {
        text.split(separator: "\n").compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            return QueuedRequest.Field(name: String(line[..<colon]), value: String(value))
        }
    }

    /// Commits the waiting appends, batch after batch, until none wait.
    private func commitWaiting() async {
        while true {
            let batch = waiting.withLock { waiting in
                let batch = waiting.items
                waiting.items.removeAll()
                if batch.isEmpty { waiting.isCommitting = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            do {
                let items = batch.map(\.0)
                try await database.write { db in
                    let insert = try db.cachedStatement(sql: """
                        INSERT INTO queued_write (id, queue, method, url, fields, body, idempotency_key, created_at,
                            attempts, last_error, next_attempt_at, state, dead_letter_status, dead_letter_body,
                            account, invalidates, body_is_personal)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """)
                    for item in items {
                        try insert.execute(arguments: [
                            item.id, item.queue, item.method, item.url, Self.text(of: item.fields), item.body, item.idempotencyKey,
                            item.createdAt.timeIntervalSince1970, item.attempts, item.lastError,
                            item.nextAttemptAt.timeIntervalSince1970, item.state.rawValue, item.deadLetterStatus, item.deadLetterBody,
                            item.account, item.invalidates.joined(separator: "\n"), item.bodyIsPersonalData,
                        ])
                    }
                }
                for (_, continuation) in batch { continuation.resume() }
            } catch {
                for (_, continuation) in batch { continuation.resume(throwing: error) }
            }
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("queued_write v1") { db in
            try db.execute(sql: """
                CREATE TABLE queued_write (
                    sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    queue TEXT NOT NULL,
                    method TEXT NOT NULL,
                    url TEXT NOT NULL,
                    fields TEXT NOT NULL,
                    body BLOB NOT NULL,
                    idempotency_key TEXT NOT NULL,
                    created_at REAL NOT NULL,
                    attempts INTEGER NOT NULL,
                    last_error TEXT,
                    next_attempt_at REAL NOT NULL,
                    state TEXT NOT NULL,
                    dead_letter_status INTEGER,
                    dead_letter_body TEXT
                )
                """)
        }
        migrator.registerMigration("queued_write v2: account and invalidates") { db in
            // Writes queued before this version belong to no account: they are delivered as
            // before, to whoever is signed in.
            try db.execute(sql: "ALTER TABLE queued_write ADD COLUMN account TEXT")
            try db.execute(sql: "ALTER TABLE queued_write ADD COLUMN invalidates TEXT NOT NULL DEFAULT ''")
        }
        migrator.registerMigration("queued_write v3: personal bodies") { db in
            try db.execute(sql: "ALTER TABLE queued_write ADD COLUMN body_is_personal INTEGER NOT NULL DEFAULT 0")
        }
        return migrator
    }
}
