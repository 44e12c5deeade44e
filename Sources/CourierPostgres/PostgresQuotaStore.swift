public import Courier
public import Foundation
import PostgresNIO

/// Quota ledgers in PostgreSQL, shared by every process of a fleet (a `QuotaStore`): N
/// processes spend one provider quota, not N.
///
/// ```swift
/// configuration.quota = QuotaPolicy(rules: [strava], store: PostgresQuotaStore(database: database))
/// ```
///
/// Each admission reads the quota's ledger with `SELECT … FOR UPDATE`, decides with
/// `QuotaLedger`, and writes it back in one transaction: two processes asking for the last
/// call of a window never both get it.
///
/// `Sendable`: a `final class` whose stored properties are immutable and `Sendable`.
public final class PostgresQuotaStore: QuotaStore {
    /// The database.
    public let database: PostgresDatabase
    /// The quota store's name: several can share one database.
    public let name: String
    private let sealing = RowSealing(encryptionKey: nil, digestSecret: Array("courier.quota".utf8))
    static let table = "courier_quota"

    /// Makes the quota store of a database.
    /// - Parameters:
    ///   - database: The database.
    ///   - name: The store's name (`default`).
    public init(database: PostgresDatabase, name: String = "default") {
        self.database = database
        self.name = name
    }

    /// Admits one call under `key` now, or says when it may go, atomically across processes.
    public func admit(key: String, windows: [QuotaWindow], at now: Date) async throws -> QuotaLedger.Decision {
        try await change(key: key, windows: windows, doing: "admitting a call to a quota") { ledger in ledger.admit(at: now) }
    }

    /// Corrects the ledger under `key` with what a server announced.
    public func correct(key: String, windows: [QuotaWindow], with announcement: QuotaAnnouncement, at now: Date) async throws {
        try await change(key: key, windows: windows, doing: "correcting a quota") { ledger in ledger.correct(with: announcement, at: now) }
    }

    /// Counts a call admitted at `admittedAt` as made at `endedAt`, atomically across processes.
    public func settle(key: String, admittedAt: Date, endedAt: Date) async throws {
        try await change(key: key, windows: [], doing: "settling a quota call") { ledger in ledger.settle(admittedAt: admittedAt, at: endedAt) }
    }

    /// The ledger under `key`, if there is one.
    public func ledger(key: String) async throws -> QuotaLedger? {
        try await database.withConnection("reading a quota") { [self] connection in
            let rows = try await connection.query(
                "SELECT row_version, ledger FROM courier_quota WHERE store = \(name) AND key = \(key)", logger: database.logger
            ).collect()
            guard let row = rows.first else { return nil }
            let (version, stored) = try row.decode((Int, Data).self)
            return try sealing.open(QuotaLedger.self, from: stored, rowVersion: version, table: Self.table)
        }
    }

    private func change<Result: Sendable>(
        key: String, windows: [QuotaWindow], doing: String, _ body: @escaping @Sendable (inout QuotaLedger) -> Result
    ) async throws -> Result {
        try await database.withTransaction(doing) { [self] connection in
            // Makes the row if it is missing, so that FOR UPDATE has a row to lock.
            let fresh = try sealing.seal(QuotaLedger(windows: windows))
            try await connection.query("""
                INSERT INTO courier_quota (store, key, row_version, ledger) VALUES (\(name), \(key), \(PostgresSchema.rowVersion), \(fresh))
                ON CONFLICT DO NOTHING
                """, logger: database.logger)
            let rows = try await connection.query(
                "SELECT row_version, ledger FROM courier_quota WHERE store = \(name) AND key = \(key) FOR UPDATE", logger: database.logger
            ).collect()
            guard let row = rows.first else { throw PostgresStoreError(code: .queryFailed, message: "the quota row vanished") }
            let (version, stored) = try row.decode((Int, Data).self)
            var ledger = try sealing.open(QuotaLedger.self, from: stored, rowVersion: version, table: Self.table)
            let result = body(&ledger)
            let updated = try sealing.seal(ledger)
            try await connection.query("""
                UPDATE courier_quota SET row_version = \(PostgresSchema.rowVersion), ledger = \(updated) WHERE store = \(name) AND key = \(key)
                """, logger: database.logger)
            return result
        }
    }
}
