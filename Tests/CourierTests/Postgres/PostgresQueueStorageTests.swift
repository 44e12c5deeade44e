import Courier
import Crypto
@testable import CourierPostgres
import Foundation
import PostgresNIO
import Testing

@Suite("PostgreSQL: the outbox's storage", .needsPostgresServer, .privatePostgres)
struct PostgresQueueStorageTests {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func write(_ number: Int, account: String, queue: String = "default") -> QueuedRequest {
        QueuedRequest(
            id: "w\(number)", queue: queue, method: "POST", url: "https://api.example.com/writes", fields: [],
            body: Data("{\"n\":\(number)}".utf8), idempotencyKey: "k\(number)", createdAt: start, account: account
        )
    }

    /// Ends every lease now on the database's clock, which times them: what the passing of a
    /// lease does, without waiting for it.
    private func endLeases(_ database: CourierPostgres.PostgresDatabase) async throws {
        try await database.withConnection("ending leases") { connection in
            try await connection.query(
                "UPDATE courier_outbox_groups SET leased_until = clock_timestamp() - interval '1 millisecond' WHERE leased_until IS NOT NULL",
                logger: database.logger
            )
        }
    }

    @Test func writesComeBackInOrderAndUpdatesAndRemovalsHold() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let storage = PostgresQueueStorage(database: database)
            for number in 0..<5 { try await storage.append(write(number, account: "a")) }
            #expect(try await storage.items().map(\.id) == ["w0", "w1", "w2", "w3", "w4"])
            var second = write(1, account: "a")
            second.state = .deadLettered
            second.attempts = 3
            try await storage.update(second)
            try await storage.remove(ids: ["w0", "w3"])
            let items = try await storage.items()
            #expect(items.map(\.id) == ["w1", "w2", "w4"])
            #expect(items.first?.state == .deadLettered && items.first?.attempts == 3)
        }
    }

    @Test func aGroupClaimedByOneProcessIsNotClaimedByAnotherUntilItsLeaseEnds() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let one = PostgresQueueStorage(database: database, lease: .seconds(30))
            let two = PostgresQueueStorage(database: database, lease: .seconds(30))
            for number in 0..<3 { try await one.append(write(number, account: "alice")) }
            for number in 3..<5 { try await one.append(write(number, account: "bob")) }
            let first = try await one.claim(now: start, ignoringBackoff: false, excluding: [], limit: 100)
            #expect(first.map(\.id) == ["w0", "w1", "w2", "w3", "w4"])
            #expect(try await two.claim(now: start, ignoringBackoff: false, excluding: [], limit: 100).isEmpty)
            // The first process died: its lease ends, and the other takes the writes, in order.
            try await endLeases(database)
            let taken = try await two.claim(now: start, ignoringBackoff: false, excluding: [], limit: 100)
            #expect(taken.map(\.id) == ["w0", "w1", "w2", "w3", "w4"])
            try await two.releaseClaims()
            let byGroup = try await one.claim(now: start, ignoringBackoff: false, excluding: ["default\u{1F}alice"], limit: 100)
            #expect(byGroup.map(\.id) == ["w3", "w4"])
        }
    }

    @Test func concurrentClaimsNeverShareAGroup() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let storages = (0..<6).map { _ in PostgresQueueStorage(database: database) }
            for number in 0..<60 { try await storages[0].append(write(number, account: "account-\(number % 12)")) }
            let claims = try await withThrowingTaskGroup(of: [QueuedRequest].self) { group in
                for storage in storages { group.addTask { try await storage.claim(now: start, ignoringBackoff: false, excluding: [], limit: 100) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let ids = claims.flatMap { $0.map(\.id) }
            #expect(ids.count == Set(ids).count)
            let accountsPerClaim = claims.map { Set($0.compactMap(\.account)) }
            for (index, accounts) in accountsPerClaim.enumerated() {
                for other in accountsPerClaim[(index + 1)...] { #expect(accounts.isDisjoint(with: other)) }
            }
        }
    }

    @Test func aGroupWhoseFirstWriteIsInBackoffWaitsAndNextDeliverySaysWhen() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let storage = PostgresQueueStorage(database: database)
            var first = write(0, account: "a")
            first.nextAttemptAt = start.addingTimeInterval(20)
            try await storage.append(first)
            try await storage.append(write(1, account: "a"))
            #expect(try await storage.claim(now: start, ignoringBackoff: false, excluding: [], limit: 100).isEmpty)
            #expect(try await storage.nextDelivery(now: start) == start.addingTimeInterval(20))
            #expect(try await storage.claim(now: start, ignoringBackoff: true, excluding: [], limit: 100).map(\.id) == ["w0", "w1"])
        }
    }

    @Test func aRowOfANewerCourierHoldsItsGroupAndIsNeitherReadNorDeleted() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let storage = PostgresQueueStorage(database: database)
            try await storage.append(write(0, account: "a"))
            try await storage.append(write(1, account: "a"))
            try await storage.append(write(2, account: "b"))
            try await database.withConnection("test") { connection in
                try await connection.query("UPDATE courier_outbox SET row_version = 99 WHERE id = 'w0'", logger: database.logger)
            }
            #expect(try await storage.items().map(\.id) == ["w1", "w2"])
            #expect(try await storage.claim(now: start, ignoringBackoff: false, excluding: [], limit: 100).map(\.id) == ["w2"])
            #expect(try await storage.rowsFromNewerVersions() == 1)
        }
    }

    @Test func anAppendWakesAnotherProcessWithoutPolling() async throws {
        try await PrivatePostgres.withDatabase { database, url in
            let other = try await PostgresDatabase.connect(url: url, operationTimeout: PrivatePostgres.operationTimeout)
            let listening = PostgresQueueStorage(database: other)
            let appending = PostgresQueueStorage(database: database)
            let heard = EventCounter()
            let changes = listening.changes()
            let relay = Task { for await _ in changes { heard.record() } }
            // The feed says so once it listens; then an append in another pool wakes it.
            let listens = await heard.waitUntil(atLeast: 1, within: .seconds(20))
            try await appending.append(write(0, account: "a"))
            let woke = await heard.waitUntil(atLeast: 2, within: .seconds(20))
            relay.cancel()
            await other.shutdown()
            #expect(listens)
            #expect(woke)
        }
    }

    @Test func aProcessWhoseLeaseRanOutLearnsAtRenewalThatAnotherTookTheGroup() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let one = PostgresQueueStorage(database: database, lease: .seconds(30))
            let two = PostgresQueueStorage(database: database, lease: .seconds(30))
            try await one.append(write(0, account: "alice"))
            try await one.append(write(1, account: "bob"))
            #expect(try await one.claim(now: start, ignoringBackoff: false, excluding: [], limit: 100).count == 2)
            #expect(try await one.renewClaims(now: start) == ["default\u{1F}alice", "default\u{1F}bob"])
            #expect(try await two.claim(now: start, ignoringBackoff: false, excluding: [], limit: 100).isEmpty, "renewed: still one's")
            // One stalls past its lease; two takes both groups.
            try await endLeases(database)
            #expect(try await two.claim(now: start, ignoringBackoff: false, excluding: [], limit: 100).count == 2)
            #expect(try await one.renewClaims(now: start).isEmpty, "one must not deliver from them any more")
            #expect(try await two.renewClaims(now: start) == ["default\u{1F}alice", "default\u{1F}bob"])
        }
    }

    @Test func aProcessWhoseClockRunsAheadByMoreThanALeaseTakesNoGroupAnotherHolds() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            // Two machines whose wall clocks are 10 s apart, with a lease of 5 s.
            let behind = PostgresQueueStorage(database: database, lease: .seconds(5))
            let ahead = PostgresQueueStorage(database: database, lease: .seconds(5))
            for number in 0..<3 { try await behind.append(write(number, account: "alice")) }
            // The writes are due at `start` on the clock behind.
            let now = start
            #expect(try await behind.claim(now: now, ignoringBackoff: false, excluding: [], limit: 100).count == 3)
            // The lease is the database's to time: the clock ahead sees it held, and waits.
            #expect(try await ahead.claim(now: now.addingTimeInterval(10), ignoringBackoff: false, excluding: [], limit: 100).isEmpty)
            #expect(try await behind.renewClaims(now: now) == ["default\u{1F}alice"])
            // Either clock is told when the lease ends on its own terms: at most the lease away.
            let due = try #require(try await ahead.nextDelivery(now: now.addingTimeInterval(10)))
            #expect(due > now.addingTimeInterval(10) && due <= now.addingTimeInterval(15))
        }
    }

    // The time limit turns a regression (a feed that stays deaf) into a failure.
    @Test(.timeLimit(.minutes(1))) func aListeningConnectionThatWentSilentIsReplacedAndTheFeedHearsAgain() async throws {
        try await PrivatePostgres.withDatabase { direct, url in
            // The listening process reaches the server (on a Unix socket) through a loopback
            // gate that can go silent.
            var components = try #require(URLComponents(string: url))
            let folder = try #require(components.queryItems?.first { $0.name == "host" }?.value)
            let gate = try TCPGate(upstreamUnixSocket: folder + "/.s.PGSQL.5432")
            do {
                try await gate.open()
                components.host = "127.0.0.1"
                components.port = gate.port
                components.queryItems = nil
                let proxied = try #require(components.string)
                let database = try await PostgresDatabase.connect(url: proxied, createsSchema: false, operationTimeout: .seconds(1))
                do {
                    let listener = PostgresQueueStorage(database: database, name: "deaf", listenKeepAlive: .milliseconds(200))
                    var changes = listener.changes().makeAsyncIterator()
                    #expect(await changes.next() != nil, "the feed listens")
                    // Half-open: the listening connection neither breaks nor hears.
                    await gate.silenceConnections()
                    try await PostgresQueueStorage(database: direct, name: "deaf").append(write(0, account: "alice"))
                    // The keep-alive finds it silent and reconnects (a new connection through the
                    // gate forwards again); the feed then tells its subscribers, for what they missed.
                    #expect(await changes.next() != nil, "the feed came back")
                    // (Read on the direct connection: the gate silenced the proxied pool's too.)
                    let appended = try await PostgresQueueStorage(database: direct, name: "deaf").claim(now: start, ignoringBackoff: true, excluding: [], limit: 10)
                    #expect(appended.map(\.id) == ["w0"])
                    listener.feed.stop()
                } catch {
                    await database.shutdown()
                    throw error
                }
                await database.shutdown()
            } catch {
                await gate.stop()
                throw error
            }
            await gate.stop()
        }
    }

    @Test func anotherProcessesQueuedWritesToAURLAreFoundByTheURLsDigest() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let key = SymmetricKey(size: .bits256)
            let one = PostgresQueueStorage(database: database, encryptionKey: key)
            let two = PostgresQueueStorage(database: database, encryptionKey: key)
            var elsewhere = write(1, account: "a")
            elsewhere.url = "https://api.example.com/other"
            try await one.append(write(0, account: "a"))
            try await one.append(elsewhere)
            try await one.append(write(2, account: "b"))
            #expect(try await two.pendingWrites(to: "https://api.example.com/writes").map(\.id) == ["w0", "w2"])
            #expect(try await two.pendingWrites(to: "https://api.example.com/other").map(\.id) == ["w1"])
            let targets = try await database.withConnection("test") { connection in
                try await connection.query("SELECT target FROM courier_outbox", logger: database.logger).collect().map { try $0.decode(String.self) }
            }
            #expect(targets.allSatisfy { !$0.contains("example") }, "the URL is not kept in the clear beside a sealed write")
            // A row a Courier before schema version 2 wrote has no digest: it is still found.
            try await database.withConnection("test") { connection in
                try await connection.query("UPDATE courier_outbox SET target = NULL WHERE id = 'w1'", logger: database.logger)
            }
            #expect(try await two.pendingWrites(to: "https://api.example.com/other").map(\.id) == ["w1"])
            #expect(try await two.pendingWrites(to: "https://api.example.com/writes").map(\.id) == ["w0", "w2"])
            try await one.remove(ids: ["w0"])
            #expect(try await two.pendingWrites(to: "https://api.example.com/writes").map(\.id) == ["w2"])
        }
    }

    @Test func aGroupsLeaseRowGoesWithItsLastWriteAndComesBackWithTheNext() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let storage = PostgresQueueStorage(database: database)
            let groupRows = {
                try await database.withConnection("test") { connection in
                    try await connection.query("SELECT count(*) FROM courier_outbox_groups", logger: database.logger).collect().first?.decode(Int.self) ?? -1
                }
            }
            try await storage.append(write(0, account: "a"))
            try await storage.append(write(1, account: "b"))
            #expect(try await storage.claim(now: start, ignoringBackoff: false, excluding: [], limit: 100).count == 2)
            try await storage.remove(ids: ["w0"])
            try await storage.releaseClaims()
            #expect(try await groupRows() == 1, "a's row went with its last write; b's stays while b has one")
            try await storage.append(write(2, account: "a"))
            #expect(try await storage.claim(now: start, ignoringBackoff: false, excluding: [], limit: 100).map(\.id) == ["w1", "w2"])
        }
    }

    @Test func appendsRacingTheRemovalOfTheirGroupsLeaseRowAreAllClaimable() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let remover = PostgresQueueStorage(database: database)
            let appender = PostgresQueueStorage(database: database)
            for round in 0..<20 {
                try await remover.append(write(1_000 + round, account: "a"))
                _ = try await remover.claim(now: start, ignoringBackoff: true, excluding: [], limit: 100)
                try await remover.remove(ids: ["w\(1_000 + round)"])
                // The group is empty when the release starts; a write is appended to it meanwhile.
                async let released: Void = remover.releaseClaims()
                async let appended: Void = appender.append(write(round, account: "a"))
                _ = try await (released, appended)
                #expect(try await appender.claim(now: start, ignoringBackoff: true, excluding: [], limit: 100).map(\.id) == ["w\(round)"])
                try await appender.remove(ids: ["w\(round)"])
                try await appender.releaseClaims()
            }
        }
    }

    @Test func aGroupWhoseFirstWriteIsANewerCouriersIsNotDueHere() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let storage = PostgresQueueStorage(database: database)
            try await storage.append(write(0, account: "a"))
            var second = write(1, account: "a")
            second.nextAttemptAt = start.addingTimeInterval(50)
            try await storage.append(second)
            try await database.withConnection("test") { connection in
                try await connection.query("UPDATE courier_outbox SET row_version = 99 WHERE id = 'w0'", logger: database.logger)
            }
            #expect(try await storage.claim(now: start.addingTimeInterval(60), ignoringBackoff: false, excluding: [], limit: 100).isEmpty)
            #expect(try await storage.nextDelivery(now: start) == nil, "claim would not take the group at any time: no wake-up for it")
        }
    }
}
