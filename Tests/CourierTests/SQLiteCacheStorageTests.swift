import Courier
@testable import CourierSQLite
import CourierTesting
import Crypto
import Foundation
import Testing

@Suite("SQLite cache storage")
struct SQLiteCacheStorageTests {
    /// A folder of its own for each test; the storage creates `cache/` inside it.
    private let root = FileManager.default.temporaryDirectory.appendingPathComponent("courier-sqlite-tests-\(UUID().uuidString)")
    private var folder: URL { root.appendingPathComponent("cache") }
    private var databaseURL: URL { folder.appendingPathComponent("responses.sqlite") }

    private let items = CacheKey(method: "GET", url: "https://api.example.com/items")
    private let alicesProfile = CacheKey(method: "GET", url: "https://api.example.com/me", partition: "alice")
    private let bobsProfile = CacheKey(method: "GET", url: "https://api.example.com/me", partition: "bob")

    private func removeFolder() {
        try? FileManager.default.removeItem(at: root)
    }

    private func response(_ body: String, vary: [String: String?] = [:]) -> CachedResponse {
        CachedResponse(
            status: 200,
            fields: [.init(name: "Content-Type", value: "application/json"), .init(name: "ETag", value: "\"v1\"")],
            body: Data(body.utf8),
            requestDate: Date(timeIntervalSince1970: 1_700_000_000.25),
            responseDate: Date(timeIntervalSince1970: 1_700_000_000.5),
            varyValues: vary
        )
    }

    private func mode(of path: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }

    /// Every byte SQLite keeps for the database now: the main file and its `-wal` and `-shm`.
    private func rawDatabaseBytes() -> Data {
        ["", "-wal", "-shm"].reduce(into: Data()) { bytes, suffix in
            bytes.append(FileManager.default.contents(atPath: databaseURL.path + suffix) ?? Data())
        }
    }

    @Test func storedResponsesSurviveReopeningTheDatabase() async throws {
        defer { removeFolder() }
        do {
            let storage = try SQLiteCacheStorage(url: databaseURL)
            try await storage.store(response("[1,2,3]"), for: items)
            try await storage.store(response("{\"name\":\"Alice\"}", vary: ["accept-language": "en", "accept": nil]), for: alicesProfile)
        }

        let reopened = try SQLiteCacheStorage(url: databaseURL)
        #expect(try await reopened.variants(for: items) == [response("[1,2,3]")])
        #expect(try await reopened.variants(for: alicesProfile) == [response("{\"name\":\"Alice\"}", vary: ["accept-language": "en", "accept": nil])])
        #expect(try await reopened.variants(for: bobsProfile).isEmpty)
        #expect(try reopened.usage.entries == 2)
    }

    @Test func differentVaryValuesAreKeptSideBySideAndTheSameOnesAreReplaced() async throws {
        defer { removeFolder() }
        let clock = ManualClock()
        let storage = try SQLiteCacheStorage(url: databaseURL, clock: clock)
        try await storage.store(response("hello", vary: ["accept-language": "en"]), for: items)
        clock.advance(by: .seconds(1))
        try await storage.store(response("bonjour", vary: ["accept-language": "fr"]), for: items)
        #expect(try await storage.variants(for: items).map(\.body) == [Data("bonjour".utf8), Data("hello".utf8)])

        clock.advance(by: .seconds(1))
        try await storage.store(response("hello again", vary: ["accept-language": "en"]), for: items)
        #expect(try await storage.variants(for: items).map(\.body) == [Data("hello again".utf8), Data("bonjour".utf8)])
        #expect(try storage.usage.entries == 2)
    }

    @Test func removingAKeyRemovesAllItsVariants() async throws {
        defer { removeFolder() }
        let storage = try SQLiteCacheStorage(url: databaseURL)
        try await storage.store(response("hello", vary: ["accept-language": "en"]), for: items)
        try await storage.store(response("bonjour", vary: ["accept-language": "fr"]), for: items)
        try await storage.store(response("alice"), for: alicesProfile)

        try await storage.remove(items)
        #expect(try await storage.variants(for: items).isEmpty)
        #expect(try await storage.variants(for: alicesProfile).count == 1)
        #expect(try storage.usage.entries == 1)
    }

    @Test(arguments: [false, true])
    func removingAPrefixRemovesTheCollectionItsQueriesAndWhatLiesBelowInEveryPartition(encrypted: Bool) async throws {
        defer { removeFolder() }
        let storage = try SQLiteCacheStorage(url: databaseURL, encryptionKey: encrypted ? SymmetricKey(size: .bits256) : nil)
        let gone = [
            CacheKey(method: "GET", url: "https://api.example.com/api/radars?limit=20&offset=0", partition: "alice"),
            CacheKey(method: "GET", url: "https://api.example.com/api/radars?limit=20&offset=20", partition: "alice"),
            CacheKey(method: "GET", url: "https://api.example.com/api/radars/r_1", partition: "bob"),
            CacheKey(method: "GET", url: "https://api.example.com/api/radars/r_1/opinions", partition: "alice"),
        ]
        let kept = [
            CacheKey(method: "GET", url: "https://api.example.com/api/radarsX", partition: "alice"),
            CacheKey(method: "GET", url: "https://api.example.com/api/interpret", partition: "alice"),
            CacheKey(method: "GET", url: "https://other.example.com/api/radars", partition: "alice"),
        ]
        for key in gone + kept { try await storage.store(response(key.url), for: key) }
        try await storage.removeAll(under: "https://API.example.com/api/radars/")
        for key in gone { #expect(try await storage.variants(for: key).isEmpty, "\(key)") }
        for key in kept { #expect(try await storage.variants(for: key).count == 1, "\(key)") }
        #expect(try storage.usage.entries == kept.count)
        try await storage.store(response("again"), for: gone[0])
        try await storage.removeAll(under: "https://api.example.com/api/radars")
        #expect(try storage.usage.entries == kept.count, "a replaced row is found by its prefixes too")
    }

    @Test func evictionRemovesTheLeastRecentlyUsedFirst() async throws {
        defer { removeFolder() }
        let keys = (1...4).map { CacheKey(method: "GET", url: "https://api.example.com/items/\($0)") }
        let cost = VariantPayload(key: keys[0], response: response("0123456789")).encoded().count
        let clock = ManualClock()
        let storage = try SQLiteCacheStorage(url: databaseURL, maxBytes: cost * 3 + cost / 2, clock: clock)
        for key in keys.prefix(3) {
            try await storage.store(response("0123456789"), for: key)
            clock.advance(by: .seconds(1))
        }
        #expect(try await storage.variants(for: keys[0]).count == 1, "the oldest entry is used, so it is now the most recent")
        clock.advance(by: .seconds(1))

        try await storage.store(response("0123456789"), for: keys[3])

        #expect(try await storage.variants(for: keys[1]).isEmpty, "the least recently used entry is evicted")
        for survivor in [keys[0], keys[2], keys[3]] {
            #expect(try await storage.variants(for: survivor).count == 1)
        }
        #expect(try storage.usage == (bytes: cost * 3, entries: 3))
    }

    @Test func aResponseLargerThanTheWholeBudgetIsNotStored() async throws {
        defer { removeFolder() }
        let storage = try SQLiteCacheStorage(url: databaseURL, maxBytes: 200)
        try await storage.store(response("small"), for: items)
        try await storage.store(response(String(repeating: "x", count: 500)), for: alicesProfile)

        #expect(try await storage.variants(for: alicesProfile).isEmpty)
        #expect(try await storage.variants(for: items).count == 1, "nothing was evicted to make room for it")
    }

    @Test func removeAllOfOnePartitionRemovesOnlyThatUsersEntries() async throws {
        defer { removeFolder() }
        let storage = try SQLiteCacheStorage(url: databaseURL)
        try await storage.store(response("alice"), for: alicesProfile)
        try await storage.store(response("bob"), for: bobsProfile)
        try await storage.store(response("[]"), for: items)

        try await storage.removeAll(partition: "alice")
        #expect(try await storage.variants(for: alicesProfile).isEmpty)
        #expect(try await storage.variants(for: bobsProfile).count == 1)
        #expect(try await storage.variants(for: items).count == 1)

        try await storage.removeAll(partition: nil)
        #expect(try await storage.variants(for: bobsProfile).isEmpty)
        #expect(try await storage.variants(for: items).isEmpty)
        #expect(try storage.usage == (bytes: 0, entries: 0))
    }

    @Test func theFolderIsOwnerOnlyAndSoAreTheDatabaseAndItsWALAndSHMFiles() async throws {
        defer { removeFolder() }
        let storage = try SQLiteCacheStorage(url: databaseURL)
        try await storage.store(response("[]"), for: items)

        #expect(try mode(of: folder.path) == 0o700)
        for suffix in ["", "-wal", "-shm"] {
            #expect(FileManager.default.fileExists(atPath: databaseURL.path + suffix), "\(suffix) exists while the storage is open")
            #expect(try mode(of: databaseURL.path + suffix) == 0o600, "mode of responses.sqlite\(suffix)")
        }
    }

    @Test func databaseFilesLeftWithLooseModesAreMadeOwnerOnlyWhenOpened() async throws {
        defer { removeFolder() }
        let earlierRun = try SQLiteCacheStorage(url: databaseURL)
        try await earlierRun.store(response("[]"), for: items)
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: databaseURL.path + suffix)
        }

        let storage = try SQLiteCacheStorage(url: databaseURL)

        for suffix in ["", "-wal", "-shm"] {
            #expect(try mode(of: databaseURL.path + suffix) == 0o600, "mode of responses.sqlite\(suffix)")
        }
        #expect(try await storage.variants(for: items).count == 1)
    }

    @Test(arguments: [false, true])
    func aRowThatDoesNotDecodeIsAMissAndIsDeleted(encrypted: Bool) async throws {
        defer { removeFolder() }
        let storage = try SQLiteCacheStorage(url: databaseURL, encryptionKey: encrypted ? SymmetricKey(size: .bits256) : nil)
        try await storage.store(response("[1]"), for: items)
        try await storage.store(response("alice"), for: alicesProfile)

        try await storage.executeRawSQL("UPDATE variant SET payload = zeroblob(64)")

        #expect(try await storage.variants(for: items).isEmpty)
        #expect(try storage.usage.entries == 1, "the damaged row was deleted; the other is deleted when it is read")
        #expect(try await storage.variants(for: alicesProfile).isEmpty)
        #expect(try storage.usage == (bytes: 0, entries: 0))
    }

    @Test func aFileThatIsNotADatabaseIsMovedAsideAndReplaced() async throws {
        defer { removeFolder() }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var generator = SeededGenerator(seed: 42)
        let garbage = Data((0..<8_192).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        try garbage.write(to: databaseURL)

        let storage = try SQLiteCacheStorage(url: databaseURL)
        try await storage.store(response("[]"), for: items)
        #expect(try await storage.variants(for: items).count == 1)

        let movedAside = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix("responses.sqlite.corrupt-") }
        #expect(movedAside.count == 1)
        let kept = movedAside.first.flatMap { FileManager.default.contents(atPath: folder.appendingPathComponent($0).path) }
        #expect(kept == garbage, "the old file is kept as it was, for inspection")
    }

    @Test func anEncryptedCacheRoundTripsAndKeepsBodiesAndURLsOutOfTheFile() async throws {
        defer { removeFolder() }
        let key = SymmetricKey(size: .bits256)
        let secretBody = "quokka-diagnosis-7f3a9c"
        let secretURL = "https://api.example.com/private/records/quokka-42"
        let record = CacheKey(method: "GET", url: secretURL, partition: "alice")
        do {
            let storage = try SQLiteCacheStorage(url: databaseURL, encryptionKey: key)
            try await storage.store(response(secretBody), for: record)
            #expect(try await storage.variants(for: record) == [response(secretBody)])

            let whileOpen = rawDatabaseBytes()
            #expect(whileOpen.range(of: Data(secretBody.utf8)) == nil)
            #expect(whileOpen.range(of: Data("quokka-42".utf8)) == nil)
        }
        let afterClose = rawDatabaseBytes()
        #expect(afterClose.range(of: Data(secretBody.utf8)) == nil)
        #expect(afterClose.range(of: Data("quokka-42".utf8)) == nil)

        let withTheSameKey = try SQLiteCacheStorage(url: databaseURL, encryptionKey: key)
        #expect(try await withTheSameKey.variants(for: record) == [response(secretBody)])
        let withAnotherKey = try SQLiteCacheStorage(url: databaseURL, encryptionKey: SymmetricKey(size: .bits256))
        #expect(try await withAnotherKey.variants(for: record).isEmpty)
    }

    @Test func withoutAKeyTheBodyIsReadableInTheFileSoTheEncryptionCheckCanSeeIt() async throws {
        defer { removeFolder() }
        let storage = try SQLiteCacheStorage(url: databaseURL)
        try await storage.store(response("quokka-diagnosis-7f3a9c"), for: items)
        #expect(rawDatabaseBytes().range(of: Data("quokka-diagnosis-7f3a9c".utf8)) != nil)
    }

    @Test func aPayloadRoundTripsThroughItsBinaryEncodingAndRejectsTruncation() throws {
        let payload = VariantPayload(key: alicesProfile, response: response("{}", vary: ["accept": nil, "accept-language": "de"]))
        let encoded = payload.encoded()
        #expect(try VariantPayload(decoding: encoded) == payload)
        for length in [0, 1, encoded.count / 2, encoded.count - 1] {
            #expect(throws: PayloadReader.Malformed.self) { try VariantPayload(decoding: encoded.prefix(length)) }
        }
        #expect(throws: PayloadReader.Malformed.self) { try VariantPayload(decoding: encoded + Data([0])) }
    }
}
