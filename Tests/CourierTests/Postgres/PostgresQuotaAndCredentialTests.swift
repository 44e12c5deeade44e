import Courier
import CourierTesting
@testable import CourierPostgres
import Crypto
import Foundation
import HTTPTypes
import PostgresNIO
import Synchronization
import Testing

@Suite("PostgreSQL: shared quotas and credentials", .needsPostgresServer, .privatePostgres)
struct PostgresQuotaAndCredentialTests {
    @Test func processesSharingAQuotaNeverAdmitMoreThanItsLimit() async throws {
        try await PrivatePostgres.withDatabase { database, url in
            let other = try await PostgresDatabase.connect(url: url, operationTimeout: PrivatePostgres.operationTimeout)
            defer { Task { await other.shutdown() } }
            let stores = [PostgresQuotaStore(database: database), PostgresQuotaStore(database: other)]
            let windows = [QuotaWindow(limit: 100, length: .seconds(15))]
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let admitted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<150 {
                    group.addTask {
                        if case .admitted = try await stores[index % 2].admit(key: "strava", windows: windows, at: now) { return true }
                        return false
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(admitted == 100)
            let decision = try await stores[0].admit(key: "strava", windows: windows, at: now.addingTimeInterval(14))
            #expect(decision == .wait(until: now.addingTimeInterval(15)))
            #expect(try await stores[1].admit(key: "strava", windows: windows, at: now.addingTimeInterval(15)) == .admitted)
        }
    }

    @Test func aSettlementFindsItsCallsDateExactlyAfterTheRoundTrip() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let store = PostgresQuotaStore(database: database)
            let windows = [QuotaWindow(limit: 1, length: .seconds(15))]
            // A date with a fraction of a millisecond, as a clock gives.
            let admitted = Date(timeIntervalSinceReferenceDate: 817_000_000.123_456_789)
            #expect(try await store.admit(key: "k", windows: windows, at: admitted) == .admitted)
            try await store.settle(key: "k", admittedAt: admitted, endedAt: admitted.addingTimeInterval(2))
            #expect(try await store.admit(key: "k", windows: windows, at: admitted.addingTimeInterval(3)) == .wait(until: admitted.addingTimeInterval(17)))
        }
    }

    @Test func aCorrectionFromOneProcessHoldsBackAnother() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let one = PostgresQuotaStore(database: database)
            let two = PostgresQuotaStore(database: database)
            let windows = [QuotaWindow(limit: 100, length: .seconds(900))]
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            var fields = HTTPFields()
            fields[HTTPField.Name("Retry-After")!] = "30"
            let announcement = try #require(QuotaAnnouncement.read(status: 429, fields: fields, now: now))
            try await one.correct(key: "strava", windows: windows, with: announcement, at: now)
            #expect(try await two.admit(key: "strava", windows: windows, at: now) == .wait(until: now.addingTimeInterval(30)))
        }
    }

    @Test func aCredentialSavedByOneProcessIsLoadedByAnotherWithAHigherVersion() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let one = PostgresCredentialStore(database: database, account: "athlete-1")
            let two = PostgresCredentialStore(database: database, account: "athlete-1")
            let elsewhere = PostgresCredentialStore(database: database, account: "athlete-2")
            try await one.save(Credential(accessToken: "a1", refreshToken: "r1", accountID: "athlete-1"))
            #expect(try await two.load()?.accessToken == "a1")
            #expect(try await elsewhere.load() == nil)
            try await two.save(Credential(accessToken: "a2", refreshToken: "r2", accountID: "athlete-1"))
            #expect(try await one.stored()?.version == 2)
            try await one.clear()
            #expect(try await two.load() == nil)
        }
    }

    @Test func anEncryptedCredentialIsNotReadableInTheTableNorWithAnotherKey() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let key = SymmetricKey(size: .bits256)
            let store = PostgresCredentialStore(database: database, account: "a", encryptionKey: key)
            try await store.save(Credential(accessToken: "visible-access-token", refreshToken: "visible-refresh-token"))
            let raw = try await database.withConnection("test") { connection in
                try await connection.query("SELECT credential FROM courier_credentials", logger: database.logger).collect().map { try $0.decode(Data.self) }
            }
            let text = String(decoding: raw.joined(), as: UTF8.self)
            #expect(!text.contains("visible-access-token") && !text.contains("visible-refresh-token"))
            #expect(try await store.load()?.accessToken == "visible-access-token")
            let wrongKey = PostgresCredentialStore(database: database, account: "a", encryptionKey: SymmetricKey(size: .bits256))
            await #expect { try await wrongKey.load() } throws: { ($0 as? PostgresStoreError)?.code == .unreadableRow }
        }
    }

    @Test func aCredentialRowOfANewerCourierIsRefused() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let store = PostgresCredentialStore(database: database, account: "a")
            try await store.save(Credential(accessToken: "a1"))
            try await database.withConnection("test") { connection in
                try await connection.query("UPDATE courier_credentials SET row_version = 99", logger: database.logger)
            }
            await #expect { try await store.load() } throws: { ($0 as? PostgresStoreError)?.code == .rowTooNew }
        }
    }

    @Test func sessionsInManyProcessesMeetingOneExpiredTokenRefreshItOnce() async throws {
        try await PrivatePostgres.withDatabase { database, url in
            let other = try await PostgresDatabase.connect(url: url, operationTimeout: PrivatePostgres.operationTimeout)
            defer { Task { await other.shutdown() } }
            let provider = RotatingTokenProvider(refreshToken: "r0")
            let expired = Credential(accessToken: "a0", refreshToken: "r0", expiresAt: Date(timeIntervalSinceNow: -60), accountID: "athlete")
            try await PostgresCredentialStore(database: database, account: "athlete").save(expired)
            // Eight sessions, as eight processes would hold them, over two pools.
            let sessions = (0..<8).map { index in
                AuthSession(
                    authenticator: RotatingAuthenticator(provider: provider),
                    store: PostgresCredentialStore(database: index % 2 == 0 ? database : other, account: "athlete")
                )
            }
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<200 {
                    group.addTask { try await sessions[index % sessions.count].credentialForRequest().accessToken }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(provider.refreshes == 1)
            #expect(provider.uses(of: "r0") == 1)
            #expect(tokens == ["a1"])
            #expect(try await PostgresCredentialStore(database: database, account: "athlete").stored()?.version == 2)
        }
    }
}

extension PostgresQuotaAndCredentialTests {
    @Test func aSignInByAnotherProcessReachesASessionThatHadNoCredential() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let clock = ManualClock()
            let session = AuthSession(
                authenticator: RotatingAuthenticator(provider: RotatingTokenProvider(refreshToken: "r0")),
                store: PostgresCredentialStore(database: database, account: "athlete"), clock: clock
            )
            let changes = EventCounter()
            let stream = session.credentialChanges()
            let relay = Task { for await _ in stream { changes.record() } }
            defer { relay.cancel() }
            await #expect { try await session.credentialForRequest() } throws: { ($0 as? CourierError)?.code == .unauthorized }
            // Another process signs the athlete in.
            try await PostgresCredentialStore(database: database, account: "athlete").save(Credential(accessToken: "a-elsewhere", accountID: "athlete"))
            await #expect(throws: CourierError.self, "read again at most once a second") { try await session.credentialForRequest() }
            clock.advance(by: .seconds(1))
            #expect(try await session.credentialForRequest().accessToken == "a-elsewhere")
            #expect(await changes.waitUntil(atLeast: 1), "the offline queue hears of it, as of a sign-in here")
        }
    }

    @Test func aSessionRefusedForGoodTakesTheCredentialAnotherProcessSignedInWith() async throws {
        try await PrivatePostgres.withDatabase { database, _ in
            let clock = ManualClock()
            let store = PostgresCredentialStore(database: database, account: "athlete")
            try await store.save(Credential(accessToken: "a-old", accountID: "athlete"))
            let session = AuthSession(
                authenticator: RotatingAuthenticator(provider: RotatingTokenProvider(refreshToken: "r0")), store: store, clock: clock
            )
            let old = try await session.credentialForRequest()
            // The server rejects it, and it has no refresh token: the session fails for good.
            await #expect(throws: CourierError.self) { try await session.credentialAfterRejection(of: old) }
            await #expect(throws: CourierError.self) { try await session.credentialForRequest() }
            try await PostgresCredentialStore(database: database, account: "athlete").save(Credential(accessToken: "a-new", accountID: "athlete"))
            clock.advance(by: .seconds(1))
            #expect(try await session.credentialForRequest().accessToken == "a-new")
        }
    }
}

/// A token endpoint in memory whose refresh tokens rotate: each works once.
final class RotatingTokenProvider: Sendable {
    private struct State {
        var current: String
        var issued = 0
        var uses: [String: Int] = [:]
    }

    private let state: Mutex<State>

    init(refreshToken: String) {
        state = Mutex(State(current: refreshToken))
    }

    var refreshes: Int { state.withLock { $0.issued } }

    func uses(of token: String) -> Int { state.withLock { $0.uses[token] ?? 0 } }

    func refresh(_ token: String?) throws -> (access: String, refresh: String) {
        try state.withLock { state in
            guard let token else { throw CourierError(code: .unauthorized, message: "no refresh token") }
            state.uses[token, default: 0] += 1
            guard token == state.current else { throw CourierError(code: .unauthorized, message: "invalid_grant") }
            state.issued += 1
            state.current = "r\(state.issued)"
            return ("a\(state.issued)", state.current)
        }
    }
}

/// Refreshes through a ``RotatingTokenProvider``.
struct RotatingAuthenticator: Authenticator {
    let provider: RotatingTokenProvider

    func refresh(_ credential: Credential) async throws -> Credential {
        let (access, refresh) = try provider.refresh(credential.refreshToken)
        return Credential(accessToken: access, refreshToken: refresh, expiresAt: Date(timeIntervalSinceNow: 3600), accountID: credential.accountID)
    }
}
