import Courier
@testable import CourierPostgres
import Crypto
import Foundation
import PostgresNIO
import Testing

@Suite("PostgreSQL: the shared HTTP cache", .needsPostgresServer, .privatePostgres)
struct PostgresCacheStorageTests {
    private func response(_ body: String, vary: [String: String?] = [:]) -> CachedResponse {
        CachedResponse(
            status: 200, fields: [.init(name: "Cache-Control", value: "max-age=60")], body: Data(body.utf8),
            requestDate: Date(timeIntervalSince1970: 1_800_000_000), responseDate: Date(timeIntervalSince1970: 1_800_000_001), varyValues: vary
        )
    }

    @Test func whatOneProcessStoresAnotherReadsWithTheSameDigestSecret() async throws {
        try await PrivatePostgres.withDatabase { database, url in
            let other = try await PostgresDatabase.connect(url: url, operationTimeout: PrivatePostgres.operationTimeout)
            defer { Task { await other.shutdown() } }
            let one = try await PostgresCacheStorage(database: database)
            let two = try await PostgresCacheStorage(database: other)
            #expect(one.digestSecret == two.digestSecret)
            let key = CacheKey(method: "GET", url: "https://api.example.com/api/radars/1", partition: "alice")
            try await one.store(response("first"), for: key)
            #expect(try await two.variants(for: key).map(\.body) == [Data("first".utf8)])
            try await two.store(response("second"), for: key)
            #expect(try await one.variants(for: key).map(\.body) == [Data("second".utf8)])
            #expect(try await one.usage().entries == 1)
        }
    }

    @Test func partitionsStayApartAndOneIsRemovedAlone() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let storage = try await PostgresCacheStorage(database: database)
            let alice = CacheKey(method: "GET", url: "https://api.example.com/me", partition: "alice")
            let bob = CacheKey(method: "GET", url: "https://api.example.com/me", partition: "bob")
            try await storage.store(response("alice's"), for: alice)
            try await storage.store(response("bob's"), for: bob)
            #expect(try await storage.variants(for: bob).map(\.body) == [Data("bob's".utf8)])
            try await storage.removeAll(partition: "alice")
            #expect(try await storage.variants(for: alice).isEmpty)
            #expect(try await storage.variants(for: bob).count == 1)
        }
    }

    @Test func aPrefixInvalidationByOneProcessIsSeenByAnother() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let one = try await PostgresCacheStorage(database: database)
            let two = try await PostgresCacheStorage(database: database)
            let list = CacheKey(method: "GET", url: "https://api.example.com/api/radars?page=2", partition: "a")
            let item = CacheKey(method: "GET", url: "https://api.example.com/api/radars/7", partition: "b")
            let outside = CacheKey(method: "GET", url: "https://api.example.com/api/radarsx", partition: "a")
            for key in [list, item, outside] { try await one.store(response(key.url), for: key) }
            try await two.removeAll(under: "https://api.example.com/api/radars")
            #expect(try await one.variants(for: list).isEmpty)
            #expect(try await one.variants(for: item).isEmpty)
            #expect(try await one.variants(for: outside).count == 1)
            #expect(try await one.usage().entries == 1)
        }
    }

    @Test func variantsByVaryValuesAreKeptApart() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let storage = try await PostgresCacheStorage(database: database)
            let key = CacheKey(method: "GET", url: "https://api.example.com/greeting")
            try await storage.store(response("hello", vary: ["accept-language": "en"]), for: key)
            try await storage.store(response("bonjour", vary: ["accept-language": "fr"]), for: key)
            #expect(Set(try await storage.variants(for: key).map(\.body)) == [Data("hello".utf8), Data("bonjour".utf8)])
            try await storage.remove(key)
            #expect(try await storage.variants(for: key).isEmpty)
            #expect(try await storage.usage() == (0, 0))
        }
    }

    @Test func theByteBudgetEvictsTheLeastRecentlyUsed() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let storage = try await PostgresCacheStorage(database: database, maxBytes: 4_000)
            let keys = (0..<12).map { CacheKey(method: "GET", url: "https://api.example.com/r/\($0)") }
            for key in keys { try await storage.store(response(String(repeating: "x", count: 500)), for: key) }
            let usage = try await storage.usage()
            #expect(usage.bytes <= 4_000)
            #expect(usage.entries < 12 && usage.entries > 0)
            #expect(try await storage.variants(for: keys[11]).count == 1)
            #expect(try await storage.variants(for: keys[0]).isEmpty)
        }
    }

    @Test func anEncryptedCacheHoldsNoURLNorBodyInTheClear() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let key = SymmetricKey(size: .bits256)
            let storage = try await PostgresCacheStorage(database: database, encryptionKey: key)
            let cacheKey = CacheKey(method: "GET", url: "https://api.example.com/health/heart-rate", partition: "alice")
            try await storage.store(response("resting heart rate 52"), for: cacheKey)
            let raw = try await database.withConnection("test") { connection in
                try await connection.query("SELECT payload FROM courier_cache", logger: database.logger).collect().map { try $0.decode(Data.self) }
            }
            let text = String(decoding: raw.joined(), as: UTF8.self)
            #expect(!text.contains("heart") && !text.contains("resting"))
            #expect(try await storage.variants(for: cacheKey).count == 1)
            let otherKey = try await PostgresCacheStorage(database: database, encryptionKey: SymmetricKey(size: .bits256))
            #expect(try await otherKey.variants(for: cacheKey).isEmpty)
        }
    }

    @Test func aCacheRowOfANewerCourierIsSkippedNotMisread() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let storage = try await PostgresCacheStorage(database: database)
            let key = CacheKey(method: "GET", url: "https://api.example.com/r")
            try await storage.store(response("old format"), for: key)
            try await database.withConnection("test") { connection in
                try await connection.query("UPDATE courier_cache SET row_version = 99", logger: database.logger)
            }
            #expect(try await storage.variants(for: key).isEmpty)
        }
    }

    @Test func processesStoringTheSameVariantAtOnceReplaceItWithoutAFailure() async throws {
        try await PrivatePostgres.withDatabase { database, url in
            let other = try await PostgresDatabase.connect(url: url, operationTimeout: PrivatePostgres.operationTimeout)
            let one = try await PostgresCacheStorage(database: database)
            let two = try await PostgresCacheStorage(database: other)
            let key = CacheKey(method: "GET", url: "https://api.example.com/api/radars/1", partition: "alice")
            let stored = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<16 {
                    let storage = index.isMultiple(of: 2) ? one : two
                    group.addTask { (try? await storage.store(response("answer \(index % 10)"), for: key)) != nil }
                    // Invalidations and evictions of other rows take the same locks in the same order.
                    group.addTask { (try? await storage.removeAll(under: "https://api.example.com/api/other")) != nil }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            let variants = try await one.variants(for: key)
            let usage = try await two.usage()
            await other.shutdown()
            #expect(stored.allSatisfy { $0 }, "no store or invalidation failed (no duplicate key, no deadlock)")
            #expect(variants.count == 1)
            #expect(usage.entries == 1)
        }
    }
}
