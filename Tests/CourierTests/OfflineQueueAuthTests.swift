@testable import Courier
import CourierSQLite
import CourierTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// A server stand-in that cannot be reached until told, then answers writes by rule.
private final class Origin: Sendable {
    private final class Switches: Sendable {
        let reachable = Mutex(false)
        let accepted = Mutex<Set<String>>([])
    }

    private let switches = Switches()
    let transport: MockTransport

    /// - Parameter requiring: The `Authorization` values it accepts; every other write gets 401.
    ///   Empty: it accepts every write.
    init(requiring tokens: Set<String> = []) {
        switches.accepted.withLock { $0 = tokens }
        let switches = self.switches
        transport = MockTransport { request, _ in
            guard switches.reachable.withLock({ $0 }) else { throw CourierError(code: .cannotConnect, message: "down") }
            let allowed = switches.accepted.withLock { $0 }
            if !allowed.isEmpty, !allowed.contains(request.headerFields[.authorization] ?? "") { return .status(.unauthorized) }
            return .status(.created)
        }
    }

    func comeBack() { switches.reachable.withLock { $0 = true } }
    func accept(_ authorization: String) { switches.accepted.withLock { _ = $0.insert(authorization) } }
    /// The bodies of the writes that reached it, in order.
    var bodies: [String] {
        transport.requests.compactMap { $0.body.map { String(decoding: $0, as: UTF8.self) } }
    }
}

/// Refuses every refresh, as a server does for a revoked session.
private struct RefusingAuthenticator: Authenticator {
    func refresh(_ credential: Credential) async throws -> Credential {
        throw CourierError(code: .unauthorized, message: "the refresh token was revoked")
    }
}

/// Records whether each request reaching the network was marked as carrying personal data.
private final class PersonalDataProbe: Middleware {
    let seen = Mutex<[Bool]>([])
    func intercept(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: Next) async throws -> (HTTPResponse, HTTPBody?) {
        seen.withLock { $0.append(context.options.bodyIsPersonalData) }
        return try await next(request, body, context)
    }
}

private func write(_ path: String, _ text: String, method: HTTPRequest.Method = .post) -> Request<Data> {
    var request = Request<Data>(method: method, path: path, body: .json(["text": text]))
    request.options.isQueueable = true
    return request
}

/// Waits (at most ten seconds) until the client has attached its queue and its start-up
/// round is over.
private func attached(_ queue: OfflineQueue) async {
    let attached = await withDeadline(.seconds(10)) { await queue.waitUntil(.attached) } != nil
    #expect(attached, "the client did not attach the queue")
}

@Suite("The offline queue under auth trouble", .timeLimit(.minutes(1)))
struct OfflineQueueAuthTests {
    private let base = URL(string: "https://api.example.test")!

    @Test func a401DuringReplayPausesTheQueueUntilASignInThenDeliversEverything() async throws {
        let origin = Origin(requiring: ["Bearer token-new"])
        let session = AuthSession(authenticator: RefusingAuthenticator())
        try await session.signIn(Credential(accessToken: "token-old", refreshToken: "r", accountID: "alice"))
        let queue = OfflineQueue(storage: MemoryQueueStorage(), clock: ManualClock())
        var configuration = ClientConfiguration(baseURL: base, retryPolicy: .none, auth: session)
        configuration.offlineQueue = queue
        let client = APIClient(configuration: configuration, transport: origin.transport)
        await attached(queue)
        guard case .queued = try await client.sendOrQueue(write("/notes/a", "first")),
              case .queued = try await client.sendOrQueue(write("/notes/b", "second")) else {
            Issue.record("not queued")
            return
        }

        origin.comeBack()
        let before = origin.transport.requests.count
        await queue.replay()
        #expect(origin.transport.requests.count == before + 1, "one 401, then the queue stopped")
        #expect(await queue.isWaitingForSignIn)
        #expect(try await queue.deadLetters().isEmpty, "nothing dead-lettered")
        let pending = try await queue.pending()
        #expect(pending.count == 2)
        #expect(pending.allSatisfy { $0.attempts == 0 }, "a 401 does not use up the write's attempts")

        let events = queue.events()
        origin.accept("Bearer token-new")
        try await session.signIn(Credential(accessToken: "token-new", refreshToken: "r", accountID: "alice"))
        var delivered = 0
        for await event in events {
            if case .delivered = event { delivered += 1 }
            if delivered == 2 { break }
        }
        #expect(try await queue.pending().isEmpty)
        #expect(Array(origin.bodies.suffix(2)) == [#"{"text":"first"}"#, #"{"text":"second"}"#], "in order, after the sign-in")
        #expect(origin.transport.requests.suffix(2).allSatisfy { $0.request.headerFields[.authorization] == "Bearer token-new" })
    }

    @Test func aLiveWriteToTheSameURLWaitsForTheQueuedOne() async throws {
        let origin = Origin()
        // No backoff: the queued writes are due at once, so a live write delivers them first.
        let queue = OfflineQueue(storage: MemoryQueueStorage(), maxAttempts: 100, backoff: Backoff(.none), clock: ManualClock())
        var configuration = ClientConfiguration(baseURL: base, retryPolicy: .none)
        configuration.offlineQueue = queue
        let client = APIClient(configuration: configuration, transport: origin.transport)
        await attached(queue)
        guard case .queued = try await client.sendOrQueue(write("/notes/1", "v1", method: .put)) else {
            Issue.record("not queued")
            return
        }

        // Back: the live write delivers the queued one first, then goes.
        origin.comeBack()
        let sent = origin.transport.requests.count
        _ = try await client.send(write("/notes/1", "v2", method: .put))
        #expect(Array(origin.bodies.dropFirst(sent)) == [#"{"text":"v1"}"#, #"{"text":"v2"}"#])
        #expect(try await queue.pending().isEmpty)
    }

    @Test func duringAnOutageALiveWriteNeverOvertakesAQueuedOneAndCostsItNoAttempts() async throws {
        let origin = Origin()
        let queue = OfflineQueue(storage: MemoryQueueStorage(), maxAttempts: 3, backoff: Backoff(.none), clock: ManualClock())
        var configuration = ClientConfiguration(baseURL: base, retryPolicy: .none)
        configuration.offlineQueue = queue
        let client = APIClient(configuration: configuration, transport: origin.transport)
        await attached(queue)
        guard case .queued = try await client.sendOrQueue(write("/notes/1", "v1", method: .put)) else {
            Issue.record("not queued")
            return
        }

        // The first plain write tries the queued one first; it cannot go, so neither may this.
        var plain = write("/notes/1", "v2", method: .put)
        plain.options.isQueueable = false
        #expect(await courierError { _ = try await client.send(plain) }?.code == .queuedWriteAhead)
        // Now the queue knows the server is down: later writes try nothing and queue behind.
        let tried = origin.transport.requests.count
        for index in 3...10 {
            guard case .queued = try await client.sendOrQueue(write("/notes/1", "v\(index)", method: .put)) else {
                Issue.record("v\(index) not queued behind")
                return
            }
        }
        #expect(await courierError { _ = try await client.send(plain) }?.code == .queuedWriteAhead)
        #expect(origin.transport.requests.count == tried, "no attempt during the outage")
        #expect(try await queue.pending().first?.attempts == 1, "the queued write kept its tries")
        #expect(try await queue.deadLetters().isEmpty)

        // Back: a round delivers them in order; then a live write goes straight out.
        origin.comeBack()
        await queue.replay()
        let sent = origin.transport.requests.count
        #expect(try await queue.pending().isEmpty)
        #expect(Array(origin.bodies.suffix(9)) == (["v1"] + (3...10).map { "v\($0)" }).map { #"{"text":"\#($0)"}"# })
        _ = try await client.send(plain)
        #expect(origin.transport.requests.count == sent + 1)

        // A write to another URL never waits.
        _ = try await client.send(write("/notes/2", "other", method: .put))
        #expect(origin.bodies.last == #"{"text":"other"}"#)
    }

    @Test func replaysCarryTheApplicationTierAuthOfLiveCalls() async throws {
        let origin = Origin(requiring: ["Bearer app-token"])
        let queue = OfflineQueue(storage: MemoryQueueStorage(), clock: ManualClock())
        var configuration = ClientConfiguration(baseURL: base, retryPolicy: .none)
        configuration.offlineQueue = queue
        configuration.middleware.append(BearerTokenMiddleware(token: "app-token"))
        let client = APIClient(configuration: configuration, transport: origin.transport)
        await attached(queue)
        guard case .queued = try await client.sendOrQueue(write("/notes", "signed")) else {
            Issue.record("not queued")
            return
        }
        #expect(try await queue.pending().first?.fields.contains { $0.name.lowercased() == "authorization" } == false, "no secret stored")
        origin.comeBack()
        await queue.replay()
        #expect(try await queue.pending().isEmpty, "delivered, not refused")
        #expect(try await queue.deadLetters().isEmpty)
        #expect(origin.transport.requests.last?.request.headerFields[.authorization] == "Bearer app-token")
    }

    @Test func aPersonalBodyStaysMarkedPersonalThroughTheQueueAndItsReplay() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-personal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage = try SQLiteQueueStorage(url: folder.appendingPathComponent("queue.sqlite"))
        let origin = Origin()
        let probe = PersonalDataProbe()
        let queue = OfflineQueue(storage: storage, clock: ManualClock())
        var configuration = ClientConfiguration(baseURL: base, retryPolicy: .none)
        configuration.offlineQueue = queue
        configuration.networkMiddleware = [probe]
        let client = APIClient(configuration: configuration, transport: origin.transport)
        await attached(queue)
        var health = write("/health", "heart rate 61")
        health.options.bodyIsPersonalData = true
        guard case .queued = try await client.sendOrQueue(health) else {
            Issue.record("not queued")
            return
        }
        #expect(try await storage.items().first?.bodyIsPersonalData == true, "kept in the row")
        origin.comeBack()
        await queue.replay()
        #expect(try await queue.pending().isEmpty)
        let seen = probe.seen.withLock { $0 }
        #expect(seen.count == 2, "the live attempt and the replay")
        #expect(seen.allSatisfy { $0 }, "both marked personal")
    }

    @Test func aDeadLetteredAnswerKeepsNoTokenOnDisk() async throws {
        let queue = OfflineQueue(storage: MemoryQueueStorage(), clock: ManualClock())
        let reachable = Mutex(false)
        let transport = MockTransport { _, _ in
            guard reachable.withLock({ $0 }) else { throw CourierError(code: .cannotConnect, message: "down") }
            return .json(#"{"error":"invalid","session":{"token":"s3cret-1","user":"alice"},"refresh_token":"s3cret-2"}"#, status: .unprocessableContent)
        }
        var configuration = ClientConfiguration(baseURL: base, retryPolicy: .none)
        configuration.offlineQueue = queue
        let client = APIClient(configuration: configuration, transport: transport)
        await attached(queue)
        guard case .queued = try await client.sendOrQueue(write("/notes", "x")) else {
            Issue.record("not queued")
            return
        }
        reachable.withLock { $0 = true }
        await queue.replay()
        let dead = try #require(try await queue.deadLetters().first)
        #expect(dead.deadLetterStatus == 422)
        let body = try #require(dead.deadLetterBody)
        #expect(body.contains("invalid"), "the error stays readable: \(body)")
        #expect(!body.contains("s3cret"), "no token kept: \(body)")
    }
}
