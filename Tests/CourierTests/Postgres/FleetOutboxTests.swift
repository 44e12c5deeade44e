@testable import Courier
import CourierAsyncHTTPClient
import CourierTesting
@testable import CourierPostgres
import Foundation
import ReferenceServer
import Testing

@Suite("PostgreSQL: an outbox shared by several clients", .needsPostgresServer, .privatePostgres)
struct FleetOutboxTests {
    /// A client of the fleet origin that delivers the shared outbox `name`, as every account.
    private func makeClient(
        _ url: URL, _ database: PostgresDatabase, outbox name: String, lease: Duration = .seconds(30), clock: any CourierClock = SystemClock(),
        transport: any Transport
    ) -> APIClient {
        var configuration = ClientConfiguration(baseURL: url)
        configuration.offlineQueue = OfflineQueue(
            storage: PostgresQueueStorage(database: database, name: name, lease: lease),
            backoff: Backoff(.constant(.milliseconds(50)), jitter: .none), clock: clock
        )
        configuration.accounts = AccountSessions(authenticator: StoredBearer(), clock: clock) { PostgresCredentialStore(database: database, account: $0) }
        configuration.retryPolicy = .none
        return APIClient(configuration: configuration, transport: transport)
    }

    private func seedAccounts(_ count: Int, _ server: ReferenceServer, _ database: PostgresDatabase) async throws {
        for index in 0..<count {
            let account = "athlete-\(index)"
            try await PostgresCredentialStore(database: database, account: account)
                .save(Credential(accessToken: server.fleet.accountToken(for: account), accountID: account))
        }
    }

    private func write(_ number: Int, seq: Int, account: String) -> Request<Void> {
        var request = Request<Void>(method: .post, path: "/fleet/accounts/\(account)/writes", body: .json(FleetWrite(write: number, seq: seq)))
        request.options.account = account
        return request
    }

    /// Runs `body` with the reference server, a fresh database and a transport, each stopped
    /// after it on every path.
    private func withFleet(_ body: (ReferenceServer, URL, PostgresDatabase, AsyncHTTPClientTransport) async throws -> Void) async throws {
        try await withRunningServer { server, url in
            try await PrivatePostgres.withDatabase { database, _ in
                let transport = AsyncHTTPClientTransport()
                do {
                    try await body(server, url, database, transport)
                } catch {
                    try? await transport.shutdown()
                    throw error
                }
                try await transport.shutdown()
            }
        }
    }

    @Test func twoClientsSharingAnOutboxDeliverEveryWriteOnceAndEachAccountInOrder() async throws {
        try await withFleet { server, url, database, transport in
            try await seedAccounts(6, server, database)
            let clients = [makeClient(url, database, outbox: "shared", transport: transport), makeClient(url, database, outbox: "shared", transport: transport)]
            var seqs: [String: Int] = [:]
            for number in 0..<120 {
                let account = "athlete-\(number % 6)"
                let seq = (seqs[account] ?? 0) + 1
                seqs[account] = seq
                try await clients[number % 2].enqueue(write(number, seq: seq, account: account))
            }
            // Deliveries happen in the clients' queues; the server's ledger is read, nothing announces it.
            let delivered = await pollUntil(within: .seconds(60)) { await server.fleet.stats().applied >= 120 }
            let stats = await server.fleet.stats()
            #expect(delivered)
            #expect(stats.applied == 120)
            #expect(stats.duplicates == 0)
            #expect(stats.orderViolations == 0)
            let emptied = await pollUntil(within: .seconds(30)) { (try? await PostgresQueueStorage(database: database, name: "shared").items().isEmpty) ?? false }
            #expect(emptied)
        }
    }

    @Test func writesAProcessHeldWhenItDiedAreDeliveredByAnotherWhenItsLeaseEnds() async throws {
        try await withFleet { server, url, database, transport in
            try await seedAccounts(2, server, database)
            // A process claimed every group and died: it never gives them back.
            let dead = PostgresQueueStorage(database: database, name: "orphaned", lease: .seconds(1))
            for number in 0..<10 {
                let account = "athlete-\(number % 2)"
                let body = try JSONEncoder().encode(FleetWrite(write: number, seq: number / 2 + 1))
                try await dead.append(QueuedRequest(
                    queue: OfflineQueue.defaultQueueName, method: "POST", url: url.absoluteString + "/fleet/accounts/\(account)/writes",
                    fields: [.init(name: "Content-Type", value: "application/json")], body: body,
                    idempotencyKey: UUID().uuidString, createdAt: Date(), account: account
                ))
            }
            let held = try await dead.claim(now: Date(), ignoringBackoff: false, excluding: [], limit: 100)
            #expect(held.count == 10)
            let client = makeClient(url, database, outbox: "orphaned", lease: .seconds(1), transport: transport)
            await client.configuration.offlineQueue?.replay()
            let whileHeld = await server.fleet.stats().applied
            // The lease ends a second after the claim; the live queue's timer is set for it.
            let delivered = await pollUntil(within: .seconds(30)) { await server.fleet.stats().applied >= 10 }
            let stats = await server.fleet.stats()
            #expect(whileHeld == 0)
            #expect(delivered)
            #expect(stats.applied == 10 && stats.orderViolations == 0 && stats.duplicates == 0)
        }
    }

    // The time limit turns a regression (a worker that never hears of the write) into a failure.
    @Test(.timeLimit(.minutes(1))) func aWorkerWhoseChangeFeedWentDeafFindsAnotherProcessesWriteWithinALease() async throws {
        try await withFleet { server, url, database, transport in
            try await seedAccounts(1, server, database)
            let clock = ManualClock(mode: .suspending)
            let storage = PostgresQueueStorage(database: database, name: "deaf", lease: .seconds(30))
            var configuration = ClientConfiguration(baseURL: url)
            configuration.offlineQueue = OfflineQueue(storage: storage, clock: clock)
            configuration.accounts = AccountSessions(authenticator: StoredBearer(), clock: clock) { PostgresCredentialStore(database: database, account: $0) }
            configuration.retryPolicy = .none
            let client = APIClient(configuration: configuration, transport: transport)
            let queue = try #require(client.configuration.offlineQueue)
            #expect(await withDeadline(.seconds(10)) { await queue.waitUntil(.attached) } != nil)
            // Nothing pending, yet a timer one lease ahead: the poll.
            #expect(await queue.scheduledWakeup == clock.date.addingTimeInterval(30))

            // Its change feed goes deaf (as over a half-open connection); another process
            // appends a write, whose notification reaches no one here.
            storage.feed.stop()
            let body = try JSONEncoder().encode(FleetWrite(write: 1, seq: 1))
            try await PostgresQueueStorage(database: database, name: "deaf").append(QueuedRequest(
                queue: OfflineQueue.defaultQueueName, method: "POST", url: url.absoluteString + "/fleet/accounts/athlete-0/writes",
                fields: [.init(name: "Content-Type", value: "application/json")], body: body,
                idempotencyKey: UUID().uuidString, createdAt: clock.date, nextAttemptAt: clock.date, account: "athlete-0"
            ))
            #expect(await server.fleet.stats().applied == 0)

            // One lease later the poll finds it.
            let events = queue.events()
            clock.advance(by: .seconds(30))
            for await event in events {
                if case .delivered = event { break }
            }
            #expect(await server.fleet.stats().applied == 1)
        }
    }

    @Test func revokedAccountsAtTheHeadOfTheOutboxDoNotHoldBackTheOthers() async throws {
        try await withFleet { server, url, database, transport in
            try await seedAccounts(1, server, database)
            // More revoked accounts than a claim takes groups, all queued first.
            let revoked = (0..<6).map { "revoked-\($0)" }
            for account in revoked {
                try await PostgresCredentialStore(database: database, account: account).save(Credential(accessToken: "withdrawn", accountID: account))
            }
            let client = makeClient(url, database, outbox: "revoked", transport: transport)
            for (number, account) in revoked.enumerated() { try await client.enqueue(write(number, seq: 1, account: account)) }
            try await client.enqueue(write(100, seq: 1, account: "athlete-0"))
            let queue = try #require(client.configuration.offlineQueue)
            await queue.replay()
            #expect(await server.fleet.stats().applied == 1, "athlete-0's write went in the same round")
            #expect(await queue.accountsWaitingForSignIn == Set(revoked))
            #expect(try await queue.pending().count == 6)
        }
    }

    @Test func anAccountSignedInAgainByAProcessThatDeliversNothingHasItsWritesDelivered() async throws {
        try await withFleet { server, url, database, transport in
            try await PostgresCredentialStore(database: database, account: "athlete-0").save(Credential(accessToken: "withdrawn", accountID: "athlete-0"))
            let clock = ManualClock(mode: .suspending)
            let client = makeClient(url, database, outbox: "signin", clock: clock, transport: transport)
            let queue = try #require(client.configuration.offlineQueue)
            try await client.enqueue(write(1, seq: 1, account: "athlete-0"))
            await queue.replay()
            #expect(await queue.accountsWaitingForSignIn == ["athlete-0"])
            // The athlete signs in again through another process (a web front end, say).
            try await PostgresCredentialStore(database: database, account: "athlete-0")
                .save(Credential(accessToken: server.fleet.accountToken(for: "athlete-0"), accountID: "athlete-0"))
            let events = queue.events()
            // Past the wait, the queue's timer round tries the account again, and its
            // session reads the store it shares with the other process.
            #expect(await withDeadline(.seconds(10)) { await queue.waitUntil(.timerSet) } != nil)
            clock.advance(by: .seconds(31))
            let delivered = await withDeadline(.seconds(20)) {
                for await event in events {
                    if case .delivered = event { return true }
                }
                return false
            }
            #expect(delivered == true)
            #expect(await server.fleet.stats().applied == 1)
            #expect(await queue.accountsWaitingForSignIn.isEmpty)
        }
    }
}
