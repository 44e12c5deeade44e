@testable import CourierPostgres
import Foundation
import PostgresNIO
import Testing

@Suite("PostgreSQL: connecting and migrating", .needsPostgresServer, .privatePostgres)
struct PostgresDatabaseTests {
    private func failure(_ url: String, createsSchema: Bool = true) async -> PostgresStoreError? {
        do {
            let database = try await PostgresDatabase.connect(url: url, createsSchema: createsSchema)
            await database.shutdown()
            return nil
        } catch {
            return error as? PostgresStoreError
        }
    }

    @Test func aURLThatIsNotPostgresFailsAsInvalid() async throws {
        #expect(await failure("mysql://user@localhost/db")?.code == .invalidURL)
        #expect(await failure("postgres://localhost/db")?.code == .invalidURL)
        #expect(await failure("postgres://user@localhost:70000/db")?.code == .invalidURL)
        #expect(await failure("postgres://user@localhost/db?sslmode=sometimes")?.code == .invalidURL)
    }

    @Test func aServerThatIsNotThereFailsAsUnreachable() async throws {
        let error = try #require(await failure("postgres://courier:s3cret-pass@localhost/db?host=/tmp/courier-no-such-folder"))
        #expect(error.code == .unreachable)
        #expect(!error.description.contains("s3cret-pass"))
    }

    @Test func anErrorThatShowsTheURLLeavesItsPasswordOut() async throws {
        // The message names the URL (its user and database show), with the password replaced.
        let error = try #require(await failure("postgres://courier:s3cret-pass@/clinic_db"))
        #expect(error.code == .invalidURL)
        #expect(error.description.contains("courier"))
        #expect(error.description.contains("clinic_db"))
        #expect(!error.description.contains("s3cret-pass"))
    }

    @Test func anUnknownUserFailsAsAuthenticationAndAMissingDatabaseAsMissing() async throws {
        let server = try #require(PrivatePostgres.server)
        let unknownUser = server.url(database: "postgres").replacingOccurrences(of: "courier@", with: "nobody@")
        #expect(await failure(unknownUser)?.code == .authenticationFailed)
        #expect(await failure(server.url(database: "no_such_database"))?.code == .databaseMissing)
    }

    @Test func aDatabaseWithoutTablesFailsAsSchemaMissingWhenToldNotToCreateThem() async throws {
        let url = try await PrivatePostgres.freshDatabaseURL()
        #expect(await failure(url, createsSchema: false)?.code == .schemaMissing)
        let database = try await PostgresDatabase.connect(url: url, operationTimeout: PrivatePostgres.operationTimeout)
        await database.shutdown()
        #expect(await failure(url, createsSchema: false) == nil)
    }

    @Test func tablesOfANewerCourierAreRefused() async throws {
        try await PrivatePostgres.withDatabase { database, url in
            try await database.withConnection("test") { connection in
                try await connection.query("UPDATE courier_schema SET version = 99", logger: database.logger)
            }
            let error = await failure(url)
            #expect(error?.code == .schemaTooNew)
        }
    }

    @Test func processesStartingTogetherMigrateOnce() async throws {
        let url = try await PrivatePostgres.freshDatabaseURL()
        let databases = try await withThrowingTaskGroup(of: PostgresDatabase.self) { group in
            for _ in 0..<6 { group.addTask { try await PostgresDatabase.connect(url: url, operationTimeout: PrivatePostgres.operationTimeout) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let versions = try await databases[0].withConnection("test") { connection in
            try await connection.query("SELECT version FROM courier_schema", logger: databases[0].logger).collect().map { try $0.decode(Int.self) }
        }
        for database in databases { await database.shutdown() }
        #expect(versions == [PostgresDatabase.schemaVersion])
    }

    @Test func aShutDownDatabaseFailsTyped() async throws {
        let url = try await PrivatePostgres.freshDatabaseURL()
        let database = try await PostgresDatabase.connect(url: url, operationTimeout: PrivatePostgres.operationTimeout)
        await database.shutdown()
        await #expect(throws: PostgresStoreError.self) { try await PostgresQuotaStore(database: database).ledger(key: "x") }
    }
}
