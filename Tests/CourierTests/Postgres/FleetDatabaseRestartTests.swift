import Courier
import CourierAsyncHTTPClient
@testable import CourierPostgres
import Foundation
import ReferenceServer
import Testing

/// Its own suite, so its own PostgreSQL: it stops and starts the server under the clients.
@Suite("PostgreSQL: an outbox across a database restart", .needsPostgresServer, .privatePostgres)
struct FleetDatabaseRestartTests {
    @Test func aRestartInTheMiddleOfDeliveriesLosesNothingAppliesNothingTwiceAndNeedsNoNewClient() async throws {
        let postgres = try #require(PrivatePostgres.server)
        try await withRunningServer { server, url in
            try await PrivatePostgres.withDatabase(operationTimeout: .seconds(3)) { database, _ in
                let transport = AsyncHTTPClientTransport()
                do {
                    for index in 0..<3 {
                        let account = "athlete-\(index)"
                        try await PostgresCredentialStore(database: database, account: account)
                            .save(Credential(accessToken: server.fleet.accountToken(for: account), accountID: account))
                    }
                    var configuration = ClientConfiguration(baseURL: url)
                    configuration.offlineQueue = OfflineQueue(
                        storage: PostgresQueueStorage(database: database, name: "restart", lease: .seconds(2)),
                        maxAttempts: 50, backoff: Backoff(.constant(.milliseconds(100)), jitter: .none)
                    )
                    configuration.accounts = AccountSessions(authenticator: StoredBearer()) { PostgresCredentialStore(database: database, account: $0) }
                    configuration.retryPolicy = .none
                    let client = APIClient(configuration: configuration, transport: transport)
                    func write(_ number: Int) -> Request<Void> {
                        let account = "athlete-\(number % 3)"
                        var request = Request<Void>(method: .post, path: "/fleet/accounts/\(account)/writes", body: .json(FleetWrite(write: number, seq: number / 3 + 1)))
                        request.options.account = account
                        return request
                    }
                    for number in 0..<60 { try await client.enqueue(write(number)) }
                    // Deliveries are under way when the server goes; the ledger is read, nothing announces it.
                    #expect(await pollUntil(within: .seconds(30)) { await server.fleet.stats().applied >= 5 })
                    try await postgres.halt()
                    var outageError: (any Error)?
                    do { try await client.enqueue(write(60)) } catch { outageError = error }
                    try await postgres.resume()
                    #expect((outageError as? CourierError)?.code == .storageFailed, "a write made during the outage fails typed, neither sent nor queued")
                    let delivered = await pollUntil(within: .seconds(60)) { await server.fleet.stats().applied >= 60 }
                    let stats = await server.fleet.stats()
                    #expect(delivered)
                    #expect(stats.applied == 60)
                    #expect(stats.duplicates == 0)
                    #expect(stats.orderViolations == 0)
                } catch {
                    try? await transport.shutdown()
                    throw error
                }
                try await transport.shutdown()
            }
        }
    }
}
