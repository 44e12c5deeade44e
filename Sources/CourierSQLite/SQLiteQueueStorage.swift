public import Courier
public import Foundation
import GRDB
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
        let payload = try Self.encoder.encode(item)
        try await database.write { db in
            try db.execute(sql: "UPDATE queued_write SET payload = ? WHERE id = ?", arguments: [payload, item.id])
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

    /// Every item, in the order they were appended. A row that does not decode is skipped
    /// and left in place (never deleted silently).
    public func items() async throws -> [QueuedRequest] {
        let payloads = try await database.read { db in
            try Data.fetchAll(db, sql: "SELECT payload FROM queued_write ORDER BY sequence")
        }
        return payloads.compactMap { try? Self.decoder.decode(QueuedRequest.self, from: $0) }
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
                let rows = try batch.map { ($0.0.id, try Self.encoder.encode($0.0)) }
                try await database.write { db in
                    for (id, payload) in rows {
                        try db.execute(sql: "INSERT INTO queued_write (id, payload) VALUES (?, ?)", arguments: [id, payload])
                    }
                }
                for (_, continuation) in batch { continuation.resume() }
            } catch {
                for (_, continuation) in batch { continuation.resume(throwing: error) }
            }
        }
    }

    private static let encoder = JSONEncoder()
    private static let decoder = JSONDecoder()

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("queued_write v1") { db in
            try db.execute(sql: """
                CREATE TABLE queued_write (
                    sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    payload BLOB NOT NULL
                )
                """)
        }
        return migrator
    }
}
