import ArgumentParser
import ClarityOpenAPI
@testable import CourierCLI
import CourierWebSocket
import Foundation
import Hummingbird
import RadarCore
@testable import ReferenceServer
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The reference server's own defences: debug routes only when asked, a password hash at
/// today's cost, sign-in throttling, refresh-token reuse that ends the family's access, and an
/// idempotency store that is bounded and whose abandoned keys come free.
@Suite("Reference server: hardening")
struct ReferenceServerSecurityTests {
    /// The defaults, but with cheap password hashing: the settings under test stay as shipped.
    private static var shipped: ReferenceServerConfiguration {
        var configuration = ReferenceServerConfiguration()
        configuration.passwordHashRounds = ReferenceServerConfiguration.testPasswordHashRounds
        return configuration
    }

    private static let demo = ReferenceServerConfiguration()

    // MARK: - Debug routes

    @Test("by default /debug answers the JSON 404, while the in-process fault controls still work")
    func debugRoutesAreOffByDefault() async throws {
        #expect(ReferenceServerConfiguration().enablesDebugRoutes == false)
        try await ServerUnderTest.runAsConfigured(Self.shipped) { server in
            let ping = try await server.send("GET", "/debug/ping")
            #expect(ping.status == 404)
            #expect(try ping.errorBody().code == "not_found")
            let script = try await server.send("POST", "/debug/faults", json: ["path": "/api/radars", "fault": "status", "status": "503"])
            #expect(script.status == 404)
            let code = try await server.send("GET", "/debug/auth/verification-token?email=demo%40courier.dev")
            #expect(code.status == 404)
            let expire = try await server.send("POST", "/debug/auth/expire-tokens")
            #expect(expire.status == 404)

            let token = try await server.demoAccessToken()
            #expect(try await server.send("GET", "/api/v1/auth/me", token: token).status == 200, "no token was expired over HTTP")
            server.server.faults.inject(.status(503), path: "/api/radars")
            #expect(try await server.send("GET", "/api/radars", token: token).status == 503)
        }
    }

    @Test("with enablesDebugRoutes, /debug/ping answers 200")
    func debugRoutesAreMountedWhenAsked() async throws {
        var configuration = Self.shipped
        configuration.enablesDebugRoutes = true
        try await ServerUnderTest.runAsConfigured(configuration) { server in
            let status = try await server.send("GET", "/debug/ping").status
            #expect(status == 200)
        }
    }

    @Test("by default the /debug/ws/echo WebSocket handshake is refused")
    func theDebugEchoSocketIsOffByDefault() async throws {
        let server = ReferenceServer(configuration: Self.shipped)
        let url = try await server.start()
        let connection = WebSocketConnection(configuration: WebSocketConfiguration(
            url: webSocketURL(url, "/debug/ws/echo"),
            reconnect: .never,
            heartbeat: nil
        ))
        connection.connect()
        let seen = await states(of: connection, until: { $0 != .idle && $0 != .connecting })
        await connection.close()
        let accepted = server.realtime.acceptedWebSocketCount
        await server.stop()
        #expect(seen.last != .connected)
        #expect(accepted == 0)
    }

    @Test("courier serve mounts the debug routes only with --debug-routes; demo and bench turn them on")
    func serveTakesADebugRoutesFlag() throws {
        #expect(try ServeCommand.parse([]).debugRoutes == false)
        #expect(try ServeCommand.parse(["--debug-routes", "--port", "0"]).debugRoutes == true)
        #expect(ReferenceServerConfiguration.embedded.enablesDebugRoutes)
        #expect(ReferenceServerConfiguration.embedded.passwordHashRounds < ReferenceServerConfiguration().passwordHashRounds)
    }

    // MARK: - Password hashing cost

    @Test("a server configured with the defaults hashes passwords with 600,000 PBKDF2 rounds")
    func theDefaultHashCostIsOWASPs() {
        #expect(ReferenceServerConfiguration().passwordHashRounds == 600_000)
        let server = ReferenceServer(configuration: ReferenceServerConfiguration())
        #expect(server.auth.hasher.rounds == 600_000)

        var cheap = ReferenceServerConfiguration()
        cheap.passwordHashRounds = 1_234
        #expect(ReferenceServer(configuration: cheap).auth.hasher.rounds == 1_234)
    }

    @Test("a hash cost below 1 counts as 1, and the demo account still signs in")
    func aHashCostBelowOneCountsAsOne() async throws {
        #expect(PasswordHasher(rounds: 0).rounds == 1)
        #expect(PasswordHasher(rounds: -5).rounds == 1)
        var configuration = Self.shipped
        configuration.passwordHashRounds = 0
        try await ServerUnderTest.runAsConfigured(configuration) { server in
            let login = try await server.send("POST", "/api/v1/auth/login", json: loginBody(email: Self.demo.demoEmail, password: Self.demo.demoPassword))
            #expect(login.status == 200)
        }
    }

    // MARK: - Sign-in throttling

    @Test("after 5 wrong passwords even the right one is 429 with Retry-After; another account is unaffected")
    func repeatedFailuresLockTheEmail() async throws {
        try await ServerUnderTest.runAsConfigured(Self.shipped) { server in
            _ = try await server.register("bob@example.com")
            for _ in 0..<5 {
                let wrong = try await server.send("POST", "/api/v1/auth/login", json: loginBody(email: Self.demo.demoEmail, password: "not-the-password"))
                #expect(wrong.status == 401)
            }
            let right = try await server.send("POST", "/api/v1/auth/login", json: loginBody(email: Self.demo.demoEmail, password: Self.demo.demoPassword))
            #expect(right.status == 429)
            let retryAfter = try #require(right.header("Retry-After").flatMap { Int($0) })
            #expect((1...900).contains(retryAfter))
            #expect(try right.errorBody().code == "too_many_attempts")

            let otherCase = try await server.send("POST", "/api/v1/auth/login", json: loginBody(email: " DEMO@Courier.dev ", password: Self.demo.demoPassword))
            #expect(otherCase.status == 429, "emails are compared normalised")

            let bob = try await server.send("POST", "/api/v1/auth/login", json: loginBody(email: "bob@example.com", password: "password-bob@example.com"))
            #expect(bob.status == 200)
        }
    }

    @Test("an unknown email is throttled exactly like a known one")
    func unknownEmailsAreThrottledToo() async throws {
        var configuration = Self.shipped
        configuration.loginFailureLimit = 2
        try await ServerUnderTest.runAsConfigured(configuration) { server in
            var replies: [[Int]] = []
            for email in [Self.demo.demoEmail, "nobody@example.com"] {
                var statuses: [Int] = []
                for _ in 0..<3 {
                    statuses.append(try await server.send("POST", "/api/v1/auth/login", json: loginBody(email: email, password: "wrong-guess")).status)
                }
                replies.append(statuses)
            }
            #expect(replies == [[401, 401, 429], [401, 401, 429]])
        }
    }

    @Test("a locked email signs in again once the window has passed, and a success clears the count")
    func theLockLiftsAfterTheWindow() async throws {
        let clock = AdjustableDate()
        let auth = AuthService(
            demoEmail: Self.demo.demoEmail,
            demoPassword: Self.demo.demoPassword,
            accessTokenLifetime: .seconds(900),
            hasher: PasswordHasher(rounds: 1),
            throttle: LoginThrottle(failureLimit: 2, window: 60),
            clock: { clock.now }
        )
        let right = LoginRequest(email: Self.demo.demoEmail, password: Self.demo.demoPassword)
        let wrong = LoginRequest(email: Self.demo.demoEmail, password: "wrong-guess")

        #expect(await Self.status(of: wrong, on: auth) == 401)
        #expect(await Self.status(of: right, on: auth) == 200)
        #expect(await Self.status(of: wrong, on: auth) == 401, "the success cleared the first failure")
        #expect(await Self.status(of: wrong, on: auth) == 401)
        #expect(await Self.status(of: right, on: auth) == 429)
        clock.advance(seconds: 59)
        #expect(await Self.status(of: right, on: auth) == 429)
        clock.advance(seconds: 1)
        #expect(await Self.status(of: right, on: auth) == 200)
    }

    @Test("the throttle counts failures per key, lets a run expire, and counts attempts in flight")
    func theThrottleRule() {
        let start = Date(timeIntervalSince1970: 1_000_000)
        var throttle = LoginThrottle(failureLimit: 3, window: 100)
        var decisions: [LoginThrottle.Decision] = []
        for offset in [0.0, 10] {
            decisions.append(throttle.begin(key: "a", now: start + offset))
            throttle.finish(key: "a", succeeded: false, now: start + offset)
        }
        decisions.append(throttle.begin(key: "a", now: start + 100))
        throttle.finish(key: "a", succeeded: false, now: start + 100)
        #expect(decisions == [.allowed, .allowed, .allowed], "the run began 100 s before the third: it no longer counts")

        let concurrent = (0..<3).map { _ in throttle.begin(key: "a", now: start + 101) }
        #expect(concurrent == [.allowed, .allowed, .throttled(retryAfterSeconds: 1)], "one failure and two attempts in flight reach 3")
        throttle.finish(key: "a", succeeded: false, now: start + 102)
        throttle.finish(key: "a", succeeded: false, now: start + 103)
        let locked = throttle.begin(key: "a", now: start + 103)
        #expect(locked == .throttled(retryAfterSeconds: 100))
        let other = throttle.begin(key: "b", now: start + 103)
        #expect(other == .allowed)
    }

    @Test("the throttle tracks at most its capacity, forgetting the least recently failed key")
    func theThrottleIsBounded() {
        let start = Date(timeIntervalSince1970: 1_000_000)
        var throttle = LoginThrottle(failureLimit: 1, window: 100, capacity: 2)
        for (index, key) in ["a", "b", "c"].enumerated() {
            let now = start + Double(index)
            let decision = throttle.begin(key: key, now: now)
            #expect(decision == .allowed)
            throttle.finish(key: key, succeeded: false, now: now)
        }
        let tracked = throttle.trackedCount
        #expect(tracked == 2)
        let forgotten = throttle.begin(key: "a", now: start + 3)
        #expect(forgotten == .allowed, "the oldest lock was dropped to make room")
        let kept = throttle.begin(key: "c", now: start + 3)
        #expect(kept == .throttled(retryAfterSeconds: 99))
    }

    // MARK: - Refresh-token reuse

    @Test("reusing a rotated refresh token revokes the access tokens of its family at once, not other sign-ins'")
    func refreshReuseRevokesTheFamilysAccessTokens() async throws {
        try await ServerUnderTest.run { server in
            let otherSignIn = try await server.server.issueTokens(email: Self.demo.demoEmail)
            let first = try await server.server.issueTokens(email: Self.demo.demoEmail)
            let refreshed = try await server.send("POST", "/api/v1/auth/refresh", json: RefreshBody(refreshToken: first.refreshToken))
            #expect(refreshed.status == 200)
            let second = try refreshed.decode(WireTokens.self)
            #expect(try await server.send("GET", "/api/v1/auth/me", token: second.accessToken).status == 200)

            let reuse = try await server.send("POST", "/api/v1/auth/refresh", json: RefreshBody(refreshToken: first.refreshToken))
            #expect(reuse.status == 401)

            for token in [second.accessToken, first.accessToken] {
                let me = try await server.send("GET", "/api/v1/auth/me", token: token)
                #expect(me.status == 401)
                #expect(try me.errorBody().code == "unauthorized")
            }
            #expect(try await server.send("GET", "/api/v1/auth/me", token: otherSignIn.accessToken).status == 200)
        }
    }

    // MARK: - Idempotency store

    private static let create = IdempotencyStore.Fingerprint(method: "POST", path: "/api/radars", bodyDigest: "aa")

    private static func stored(_ status: HTTPResponse.Status) -> IdempotencyStore.StoredResponse {
        IdempotencyStore.StoredResponse(status: status, headers: [:], body: ByteBuffer())
    }

    @Test("with room for 2 keys, a third evicts the oldest completed one")
    func aFullStoreEvictsTheOldestCompletedKey() async throws {
        let clock = AdjustableDate()
        let store = IdempotencyStore(maximumEntries: 2, clock: { clock.now })
        for key in ["k1", "k2"] {
            let ticket = try #require(await store.begin(userId: "u", key: key, fingerprint: Self.create).proceedTicket)
            await store.complete(userId: "u", key: key, ticket: ticket, response: Self.stored(.created))
            clock.advance(seconds: 1)
        }
        #expect(await store.begin(userId: "u", key: "k3", fingerprint: Self.create).proceedTicket != nil)
        #expect(await store.entryCount == 2)
        #expect(await store.begin(userId: "u", key: "k2", fingerprint: Self.create).replayedStatus == .created)
        #expect(await store.begin(userId: "u", key: "k1", fingerprint: Self.create).proceedTicket != nil, "k1 was forgotten")
    }

    @Test("a store full of requests in flight refuses a new key until one is abandoned")
    func aStoreFullOfRequestsInFlightRefusesNewKeys() async throws {
        let clock = AdjustableDate()
        let store = IdempotencyStore(maximumEntries: 2, inFlightTimeout: 60, clock: { clock.now })
        #expect(await store.begin(userId: "u", key: "k1", fingerprint: Self.create).proceedTicket != nil)
        clock.advance(seconds: 10)
        #expect(await store.begin(userId: "u", key: "k2", fingerprint: Self.create).proceedTicket != nil)
        #expect(await store.begin(userId: "u", key: "k3", fingerprint: Self.create).fullRetryAfter == 50)
        clock.advance(seconds: 50)
        #expect(await store.begin(userId: "u", key: "k3", fingerprint: Self.create).proceedTicket != nil)
        #expect(await store.begin(userId: "u", key: "k2", fingerprint: Self.create).isStillInFlight, "k2 is still running")
    }

    @Test("an in-flight key older than the limit runs again, and the first run's late completion is ignored")
    func anAbandonedInFlightKeyRunsAgain() async throws {
        let clock = AdjustableDate()
        let store = IdempotencyStore(inFlightTimeout: 60, clock: { clock.now })
        let crashed = try #require(await store.begin(userId: "u", key: "k", fingerprint: Self.create).proceedTicket)
        clock.advance(seconds: 59)
        #expect(await store.begin(userId: "u", key: "k", fingerprint: Self.create).isStillInFlight)
        clock.advance(seconds: 1)
        let retry = try #require(await store.begin(userId: "u", key: "k", fingerprint: Self.create).proceedTicket)
        #expect(retry != crashed)

        await store.complete(userId: "u", key: "k", ticket: crashed, response: Self.stored(.ok))
        await store.abandon(userId: "u", key: "k", ticket: crashed)
        #expect(await store.begin(userId: "u", key: "k", fingerprint: Self.create).isStillInFlight, "the retry still holds the key")
        await store.complete(userId: "u", key: "k", ticket: retry, response: Self.stored(.created))
        #expect(await store.begin(userId: "u", key: "k", fingerprint: Self.create).replayedStatus == .created)
    }

    @Test("over HTTP, a key left in flight past the timeout is taken over, and a full store is 503 with Retry-After")
    func theIdempotencyLimitsAreConfigured() async throws {
        var configuration = Self.shipped
        configuration.idempotencyInFlightTimeout = .zero
        try await ServerUnderTest.runAsConfigured(configuration) { server in
            let tokens = try await server.server.issueTokens(email: Self.demo.demoEmail)
            let body = try JSONEncoder().encode(CreateRadarRequest(topic: "Left behind"))
            let fingerprint = IdempotencyStore.Fingerprint(method: "POST", path: "/api/radars", bodyDigest: IdempotentWrite.digest(of: body))
            _ = await server.server.idempotencyStore.begin(userId: tokens.user.id, key: "crashed", fingerprint: fingerprint)
            let retried = try await server.send("POST", "/api/radars", body: body, token: tokens.accessToken, headers: ["Idempotency-Key": "crashed"])
            #expect(retried.status == 201)
        }

        configuration = Self.shipped
        configuration.idempotencyKeyLimit = 1
        try await ServerUnderTest.runAsConfigured(configuration) { server in
            let tokens = try await server.server.issueTokens(email: Self.demo.demoEmail)
            let body = try JSONEncoder().encode(CreateRadarRequest(topic: "Busy"))
            let fingerprint = IdempotencyStore.Fingerprint(method: "POST", path: "/api/radars", bodyDigest: IdempotentWrite.digest(of: body))
            _ = await server.server.idempotencyStore.begin(userId: tokens.user.id, key: "running", fingerprint: fingerprint)
            let refused = try await server.send("POST", "/api/radars", body: body, token: tokens.accessToken, headers: ["Idempotency-Key": "another"])
            #expect(refused.status == 503)
            #expect(try refused.errorBody().code == "idempotency_store_full")
            #expect(refused.header("Retry-After").flatMap { Int($0) }.map { (1...60).contains($0) } == true)
        }
    }

    // MARK: - Helpers

    /// The status a sign-in answers with: 200, or the ``APIError``'s.
    private static func status(of request: LoginRequest, on auth: AuthService) async -> Int {
        do {
            _ = try await auth.login(request)
            return 200
        } catch let error as APIError {
            return error.status.code
        } catch {
            Issue.record("not an APIError: \(error)")
            return -1
        }
    }
}

/// A current time that a test moves by hand.
private final class AdjustableDate: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_700_000_000))

    /// The time now.
    var now: Date { current.withLock { $0 } }

    /// Moves the time forward.
    func advance(seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

private extension IdempotencyStore.Decision {
    var proceedTicket: IdempotencyStore.Ticket? {
        if case .proceed(let ticket) = self { ticket } else { nil }
    }

    var replayedStatus: HTTPResponse.Status? {
        if case .replay(let response) = self { response.status } else { nil }
    }

    var fullRetryAfter: Int? {
        if case .full(let seconds) = self { seconds } else { nil }
    }

    var isStillInFlight: Bool {
        if case .inFlight = self { true } else { false }
    }
}
