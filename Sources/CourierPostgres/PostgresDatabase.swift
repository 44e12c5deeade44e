public import Logging
import Foundation
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// The PostgreSQL database a fleet of processes shares Courier's state through: the outbox
/// (``PostgresQueueStorage``), the HTTP cache (``PostgresCacheStorage``), credentials
/// (``PostgresCredentialStore``) and quota windows (``PostgresQuotaStore``).
///
/// ```swift
/// let database = try await PostgresDatabase.connect(url: "postgres://courier:secret@db.internal/courier")
/// defer { Task { await database.shutdown() } }
/// let outbox = PostgresQueueStorage(database: database)
/// ```
///
/// ``connect(url:createsSchema:maximumConnections:operationTimeout:logger:)`` checks the URL, the server and
/// the credentials at once, each failure a ``PostgresStoreError`` that names it, then brings
/// Courier's tables to this version: migrations are numbered and run once, under a lock,
/// however many processes start together. Tables made by a newer Courier are refused.
///
/// `Sendable`: a `final class` whose stored properties are immutable and `Sendable`; the pool's
/// run task and the shut-down flag sit behind a `Mutex`.
public final class PostgresDatabase: Sendable {
    /// The schema version this Courier writes and reads.
    public static let schemaVersion = PostgresSchema.migrations.count

    let client: PostgresClient
    let url: PostgresDatabaseURL
    let logger: Logger
    /// How long an operation may wait for the database (a connection, a lock, the answer)
    /// before it fails with ``PostgresStoreError/Code/unreachable``.
    public let operationTimeout: Duration
    private let runner: Mutex<Task<Void, Never>?>
    private let isShutDown = Mutex(false)
    /// Background work of the stores (change feeds), cancelled at shutdown.
    private let adopted = Mutex<[Task<Void, Never>]>([])

    private init(client: PostgresClient, url: PostgresDatabaseURL, logger: Logger, operationTimeout: Duration) {
        self.client = client
        self.url = url
        self.logger = logger
        self.operationTimeout = operationTimeout
        self.runner = Mutex(Task { await client.run() })
    }

    /// Connects to a database and makes sure Courier's tables are there, at this version.
    /// - Parameters:
    ///   - url: `postgres://user:password@host:port/database` (`?sslmode=disable|prefer|require`,
    ///     or `?host=/socket/folder` for a Unix socket).
    ///   - createsSchema: Whether to create or upgrade the tables (`true`); with `false` a
    ///     database without them fails with ``PostgresStoreError/Code/schemaMissing``.
    ///   - maximumConnections: The most connections the pool opens (20).
    ///   - operationTimeout: How long an operation may wait for the database before it fails
    ///     (10 seconds): while the server is down or restarting, calls fail typed, not hang.
    ///   - logger: Where the pool logs; nothing by default.
    /// - Throws: ``PostgresStoreError``: ``PostgresStoreError/Code/invalidURL``,
    ///   ``PostgresStoreError/Code/unreachable``, ``PostgresStoreError/Code/authenticationFailed``,
    ///   ``PostgresStoreError/Code/databaseMissing``, ``PostgresStoreError/Code/schemaMissing``
    ///   or ``PostgresStoreError/Code/schemaTooNew``.
    public static func connect(
        url: String,
        createsSchema: Bool = true,
        maximumConnections: Int = 20,
        operationTimeout: Duration = .seconds(10),
        logger: Logger = Logger(label: "courier.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws -> PostgresDatabase {
        let parsed = try PostgresDatabaseURL(url)
        let connection = try await openConnection(parsed, logger: logger)
        do {
            try await PostgresSchema.migrate(on: connection, creating: createsSchema, logger: logger)
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
        let client = PostgresClient(configuration: parsed.clientConfiguration(maximumConnections: max(2, maximumConnections)), backgroundLogger: logger)
        return PostgresDatabase(client: client, url: parsed, logger: logger, operationTimeout: operationTimeout)
    }

    /// Closes the pool. Stores made on this database fail with
    /// ``PostgresStoreError/Code/shutDown`` from then on.
    public func shutdown() async {
        let task = runner.withLock { task in
            defer { task = nil }
            return task
        }
        isShutDown.withLock { $0 = true }
        let background = adopted.withLock { tasks in
            defer { tasks = [] }
            return tasks
        }
        for work in background { work.cancel() }
        for work in background { await work.value }
        task?.cancel()
        await task?.value
    }

    /// Keeps a store's background task, to cancel it at shutdown.
    func adopt(_ task: Task<Void, Never>) {
        let stopped = isShutDown.withLock { stopped in
            if !stopped { adopted.withLock { $0.append(task) } }
            return stopped
        }
        if stopped { task.cancel() }
    }

    /// Opens one connection of its own (not the pool's), with the URL's failures named.
    static func openConnection(_ url: PostgresDatabaseURL, logger: Logger) async throws -> PostgresConnection {
        do {
            return try await PostgresConnection.connect(configuration: try url.connectionConfiguration(), id: 0, logger: logger)
        } catch {
            throw PostgresStoreError.connecting(to: url, error)
        }
    }

    /// Opens one connection of its own, for `LISTEN`.
    func openConnection() async throws -> PostgresConnection {
        try await Self.openConnection(url, logger: logger)
    }

    /// Runs `body` on a pooled connection, its failures as ``PostgresStoreError``, within
    /// `limit` (``operationTimeout`` by default).
    @discardableResult
    func withConnection<Result: Sendable>(
        _ doing: String, within limit: Duration? = nil, _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        guard !isShutDown.withLock({ $0 }) else { throw PostgresStoreError(code: .shutDown, message: "the database was shut down; \(doing) failed") }
        do {
            return try await bounded(doing, limit ?? operationTimeout) { [client] in try await client.withConnection { try await body($0) } }
        } catch let error as PostgresStoreError {
            throw error
        } catch {
            throw PostgresStoreError.query(doing, error)
        }
    }

    /// Runs `body` in a transaction on a pooled connection, its failures as
    /// ``PostgresStoreError``, within `limit` (``operationTimeout`` by default).
    @discardableResult
    func withTransaction<Result: Sendable>(
        _ doing: String, within limit: Duration? = nil, _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        guard !isShutDown.withLock({ $0 }) else { throw PostgresStoreError(code: .shutDown, message: "the database was shut down; \(doing) failed") }
        do {
            return try await bounded(doing, limit ?? operationTimeout) { [client, logger] in
                try await client.withTransaction(logger: logger) { try await body($0) }
            }
        } catch let error as PostgresTransactionError {
            if let closure = error.closureError as? PostgresStoreError { throw closure }
            throw PostgresStoreError.query(doing, error.closureError ?? error.commitError ?? error.beginError ?? error.rollbackError ?? error)
        } catch let error as PostgresStoreError {
            throw error
        } catch {
            throw PostgresStoreError.query(doing, error)
        }
    }
}

extension PostgresDatabase {
    /// Runs `operation`, failing with ``PostgresStoreError/Code/unreachable`` when it has not
    /// finished within `limit`: while the server is down, the pool waits for a connection for as
    /// long as it is let, and a query on a connection the server dropped can wait longer still.
    ///
    /// The operation runs in a task of its own, cancelled at the limit (or when the caller is)
    /// but not waited for: the caller has its answer at the limit even when the operation does
    /// not heed cancellation. A cancelled caller gets `CancellationError` (not the database's fault).
    func bounded<Result: Sendable>(
        _ doing: String, _ limit: Duration, _ operation: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        let answer = OneAnswer<Result>()
        let work = Task {
            do { answer.give(.success(try await operation())) } catch { answer.give(.failure(error)) }
        }
        let timer = Task {
            try? await Task.sleep(for: limit)
            answer.give(.failure(PostgresStoreError(code: .unreachable, message: "\(doing) found no working database connection within \(limit)")))
        }
        defer {
            work.cancel()
            timer.cancel()
        }
        return try await withTaskCancellationHandler {
            try await answer.value()
        } onCancel: {
            answer.give(.failure(CancellationError()))
        }
    }
}

/// The first of several possible answers to one caller: a result, a timeout or a cancellation.
///
/// `Sendable`: its state lives in a `Mutex`.
private final class OneAnswer<Value: Sendable>: Sendable {
    private enum State {
        case waiting(CheckedContinuation<Value, any Error>?)
        case answered(Result<Value, any Error>)
    }

    private let state = Mutex<State>(.waiting(nil))

    /// Gives the answer, unless one was given already.
    func give(_ result: Result<Value, any Error>) {
        let waiter: CheckedContinuation<Value, any Error>? = state.withLock { state in
            guard case .waiting(let waiter) = state else { return nil }
            state = .answered(result)
            return waiter
        }
        waiter?.resume(with: result)
    }

    /// Waits for the answer.
    func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let given: Result<Value, any Error>? = state.withLock { state in
                switch state {
                case .answered(let result): return result
                case .waiting: state = .waiting(continuation); return nil
                }
            }
            if let given { continuation.resume(with: given) }
        }
    }
}

extension PostgresStoreError {
    /// A failure to open a connection, named: unreachable, refused credentials, no such database.
    static func connecting(to url: PostgresDatabaseURL, _ error: any Error) -> PostgresStoreError {
        if let error = error as? PostgresStoreError { return error }
        let place = url.socketPath.map { "the socket \($0)" } ?? "\(url.host ?? "localhost"):\(url.port)"
        guard let psql = error as? PSQLError else {
            return PostgresStoreError(code: .unreachable, message: "no PostgreSQL server answers at \(place): \(type(of: error))")
        }
        let state = psql.serverInfo?[.sqlState]
        switch (psql.code, state) {
        case (.server, "28P01"), (.server, "28000"), (.authMechanismRequiresPassword, _), (.saslError, _), (.unsupportedAuthMechanism, _):
            return PostgresStoreError(code: .authenticationFailed, message: "the server at \(place) refused the user \(url.user) or its password", sqlState: state)
        case (.server, "3D000"):
            return PostgresStoreError(code: .databaseMissing, message: "the server at \(place) has no database \(url.database ?? url.user)", sqlState: state)
        case (.server, _):
            return PostgresStoreError(code: .unreachable, message: "the server at \(place) refused the connection: \(psql.serverInfo?[.message] ?? "no reason given")", sqlState: state)
        default:
            return PostgresStoreError(code: .unreachable, message: "no PostgreSQL server answers at \(place) (\(psql.code))")
        }
    }

    /// A failed query, with what was being done and the server's own words (never a value).
    static func query(_ doing: String, _ error: any Error) -> PostgresStoreError {
        if let error = error as? PostgresStoreError { return error }
        if let psql = error as? PSQLError {
            let state = psql.serverInfo?[.sqlState]
            let detail = psql.serverInfo?[.message] ?? "\(psql.code)"
            return PostgresStoreError(code: .queryFailed, message: "\(doing) failed: \(detail)", sqlState: state)
        }
        return PostgresStoreError(code: .queryFailed, message: "\(doing) failed: \(type(of: error))")
    }
}
