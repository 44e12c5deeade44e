import Courier
@testable import CourierPostgres
import Foundation
import PostgresNIO
import Testing

@Suite("PostgreSQL: the outbox's storage", .privatePostgres)
struct PostgresQueueStorageTests {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func write(_ number: Int, account: String, queue: String = "default") -> QueuedRequest {
        QueuedRequest(
            id: "w\(number)", queue: queue, method: "POST", url: "https://api.example.com/writes", fields: [],
            body: Data("{\"n\":\(number)}".utf8), idempotencyKey: "k\(number)", createdAt: start, account: account
        )
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
            let taken = try await two.claim(now: start.addingTimeInterval(31), ignoringBackoff: false, excluding: [], limit: 100)
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
            #expect(try await storage.nextDelivery() == start.addingTimeInterval(20))
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
            let other = try await PostgresDatabase.connect(url: url)
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
}
