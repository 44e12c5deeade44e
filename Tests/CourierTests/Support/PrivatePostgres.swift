@testable import CourierPostgres
import Foundation
import Testing

/// The private PostgreSQL server of a suite marked `.privatePostgres`: started before the
/// suite's first test and stopped after its last, whether they passed or not.
enum PrivatePostgres {
    @TaskLocal static var server: LocalPostgresServer?

    /// How long the tests' database operations may take before they fail as unreachable: the
    /// library's 10 seconds, times ``testPatience`` (under the thread sanitizer, 150 calls
    /// queued on one row's lock take longer than that; it is a bound on failure).
    static let operationTimeout: Duration = .seconds(10) * testPatience

    /// A new, empty database on the suite's server, with Courier's tables, shut down after
    /// `body` on every path.
    static func withDatabase<T>(
        createsSchema: Bool = true,
        operationTimeout: Duration = PrivatePostgres.operationTimeout,
        _ body: (PostgresDatabase, _ url: String) async throws -> T
    ) async throws -> T {
        let url = try await freshDatabaseURL()
        let database = try await PostgresDatabase.connect(url: url, createsSchema: createsSchema, operationTimeout: operationTimeout)
        do {
            let result = try await body(database, url)
            await database.shutdown()
            return result
        } catch {
            await database.shutdown()
            throw error
        }
    }

    /// Makes a new, empty database on the suite's server and returns its URL.
    static func freshDatabaseURL() async throws -> String {
        let server = try #require(server, "the suite must be marked .privatePostgres")
        return try await server.createDatabase("t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased())
    }
}

/// Starts a private PostgreSQL server for a suite (``PrivatePostgres/server``) and stops it
/// when the suite ends, on every path.
struct PrivatePostgresTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let server = try await LocalPostgresServer.start()
        do {
            try await PrivatePostgres.$server.withValue(server) { try await function() }
        } catch {
            try? await server.stop()
            throw error
        }
        try await server.stop()
    }
}

extension Trait where Self == PrivatePostgresTrait {
    /// A private PostgreSQL server for the suite's tests.
    static var privatePostgres: Self { PrivatePostgresTrait() }
}
