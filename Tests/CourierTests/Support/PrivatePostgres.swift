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

/// Whether the PostgreSQL suites run here: they need PostgreSQL's server programs (`initdb`,
/// `pg_ctl`), found as ``LocalPostgresServer/findBinaries()`` finds them.
///
/// On a machine without them the suites are reported as skipped, with the command that
/// installs them. With `COURIER_REQUIRE_POSTGRES=1` in the environment (`.ci/run` sets it) they
/// always run, so a machine that lacks the programs fails them instead of passing by skipping.
enum PostgresAvailability {
    /// The environment variable that makes a missing server a failure rather than a skip.
    static let requirementVariable = "COURIER_REQUIRE_POSTGRES"
    /// What a user runs to get the programs, on Debian and Ubuntu.
    static let installCommand = "sudo apt-get install postgresql"

    /// Whether the suites run: the programs are there, or they are required.
    static var suitesRun: Bool {
        ProcessInfo.processInfo.environment[requirementVariable] == "1" || (try? LocalPostgresServer.findBinaries()) != nil
    }

    /// Why they were skipped.
    static let skipReason: Comment = "PostgreSQL's server programs (initdb, pg_ctl) are not installed; `\(installCommand)` installs them (or set COURIER_POSTGRES_BIN)"
}

extension Trait where Self == ConditionTrait {
    /// Runs the suite only where ``PostgresAvailability/suitesRun``; skips it, saying why, elsewhere.
    static var needsPostgresServer: Self { .enabled(if: PostgresAvailability.suitesRun, PostgresAvailability.skipReason) }
}
