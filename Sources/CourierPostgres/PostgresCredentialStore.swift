public import Courier
public import Crypto
import Foundation
import PostgresNIO

/// One account's credential in PostgreSQL, shared by every process of a fleet, with a refresh
/// that is single-flight across all of them (a `CoordinatedCredentialStore`).
///
/// ```swift
/// let accounts = AccountSessions(authenticator: IntervalsOAuthAuthenticator(...)) { account in
///     PostgresCredentialStore(database: database, account: account, encryptionKey: key)
/// }
/// ```
///
/// A refresh takes a transaction-scoped advisory lock for the account, then reads the stored
/// credential: if another process has already replaced the one found expired, that one is
/// used and the server is not asked; otherwise this process refreshes, and saves the result
/// (its `version` one higher) before the lock is let go. So a rotating refresh token is spent
/// exactly once, however many processes meet the expired credential at once. The lock ends
/// with the transaction, even when the process dies.
///
/// Tokens are stored sealed with AES-GCM when an encryption key is given (recommended: the
/// tokens then never sit readable in the database or its backups).
///
/// `Sendable`: a `final class` whose stored properties are immutable and `Sendable`.
public final class PostgresCredentialStore: CoordinatedCredentialStore {
    /// The database.
    public let database: PostgresDatabase
    /// The account whose credential this is.
    public let account: String
    /// The credential store's name: several can share one database.
    public let name: String
    private let sealing: RowSealing
    static let table = "courier_credentials"

    /// Makes the store of one account's credential.
    /// - Parameters:
    ///   - database: The database.
    ///   - account: The account.
    ///   - name: The store's name (`default`).
    ///   - encryptionKey: A key that seals the stored tokens; `nil` stores them as they are.
    public init(database: PostgresDatabase, account: String, name: String = "default", encryptionKey: SymmetricKey? = nil) {
        self.database = database
        self.account = account
        self.name = name
        self.sealing = RowSealing(encryptionKey: encryptionKey, digestSecret: Array("courier.credentials".utf8))
    }

    /// The stored credential, if any.
    public func load() async throws -> Credential? {
        try await stored().map(\.credential)
    }

    /// The stored credential with its version, if any.
    public func stored() async throws -> (credential: Credential, version: Int64)? {
        try await database.withConnection("reading a credential") { [self] connection in
            try await read(on: connection, locking: false)
        }
    }

    /// Replaces the stored credential (a sign-in), one version higher.
    public func save(_ credential: Credential) async throws {
        try await database.withConnection("saving a credential") { [self] connection in
            try await write(credential, on: connection)
        }
    }

    /// Removes the stored credential (a sign-out).
    public func clear() async throws {
        try await database.withConnection("removing a credential") { [self] connection in
            try await connection.query("DELETE FROM courier_credentials WHERE store = \(name) AND account = \(account)", logger: database.logger)
        }
    }

    /// Renews `credential` unless another process already has, holding the account's lock
    /// from the comparison to the save.
    public func refresh(
        _ credential: Credential,
        using renew: @escaping @Sendable (Credential) async throws -> Credential
    ) async throws -> Credential {
        let lockKey = "courier.credential|\(name)|\(account)"
        return try await database.withTransaction("refreshing a credential", within: .seconds(120)) { [self] connection in
            try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(lockKey), 0))", logger: database.logger)
            let current = try await read(on: connection, locking: true)
            if let current, current.credential.accessToken != credential.accessToken {
                // Another process refreshed it while this one waited for the lock.
                return current.credential
            }
            guard let current else {
                // Signed out meanwhile (here or in another process): nothing to renew.
                throw CourierError(code: .unauthorized, message: "the account was signed out; sign in again")
            }
            var fresh = try await renew(current.credential)
            if fresh.accountID == nil { fresh.accountID = credential.accountID }
            try await write(fresh, on: connection)
            return fresh
        }
    }

    private func read(on connection: PostgresConnection, locking: Bool) async throws -> (credential: Credential, version: Int64)? {
        let rows = try await connection.query(
            locking
                ? "SELECT version, row_version, credential FROM courier_credentials WHERE store = \(name) AND account = \(account) FOR UPDATE"
                : "SELECT version, row_version, credential FROM courier_credentials WHERE store = \(name) AND account = \(account)",
            logger: database.logger
        ).collect()
        guard let row = rows.first else { return nil }
        let (version, rowVersion, stored) = try row.decode((Int64, Int, Data).self)
        return (try sealing.open(Credential.self, from: stored, rowVersion: rowVersion, table: Self.table), version)
    }

    private func write(_ credential: Credential, on connection: PostgresConnection) async throws {
        let sealed = try sealing.seal(credential)
        try await connection.query("""
            INSERT INTO courier_credentials (store, account, version, row_version, credential)
            VALUES (\(name), \(account), 1, \(PostgresSchema.rowVersion), \(sealed))
            ON CONFLICT (store, account) DO UPDATE SET version = courier_credentials.version + 1,
                row_version = EXCLUDED.row_version, credential = EXCLUDED.credential
            """, logger: database.logger)
    }
}
