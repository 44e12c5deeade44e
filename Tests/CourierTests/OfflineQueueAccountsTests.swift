@testable import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// Refuses every refresh, as a provider does for a revoked grant.
private struct RevokedGrant: Authenticator {
    func refresh(_ credential: Credential) async throws -> Credential {
        throw CourierError(code: .unauthorized, message: "the grant was revoked")
    }
}

/// The `Authorization` values an origin accepts, and whether it can be reached.
private final class AcceptedTokens: Sendable {
    let values: Mutex<Set<String>>
    let reachable = Mutex(true)
    init(_ values: Set<String>) { self.values = Mutex(values) }
    func accept(_ value: String) { values.withLock { _ = $0.insert(value) } }
}

/// Accepts writes signed with the tokens it is told (any write when told none), answers 401
/// to every other.
private func origin(accepting tokens: AcceptedTokens) -> MockTransport {
    MockTransport { request, _ in
        guard tokens.reachable.withLock({ $0 }) else { throw CourierError(code: .cannotConnect, message: "down") }
        let accepted = tokens.values.withLock { $0 }
        return accepted.isEmpty || accepted.contains(request.headerFields[.authorization] ?? "") ? .status(.created) : .status(.unauthorized)
    }
}

/// A store that cannot be read while it is broken (a keychain that is locked, a database
/// that does not answer), and then holds nothing.
private final class UnreadableWhileBroken: CredentialStore {
    let broken = Atomic<Bool>(true)
    func load() async throws -> Credential? {
        if broken.load(ordering: .relaxed) { throw CourierError(code: .transportFailed, message: "the credential store did not answer") }
        return nil
    }
    func save(_ credential: Credential) async throws {}
    func clear() async throws {}
}

@Suite("The offline queue with many accounts", .timeLimit(.minutes(1)))
struct OfflineQueueAccountsTests {
    private let base = URL(string: "https://api.example.test")!

    private func write(_ text: String, as account: String) -> Request<Data> {
        var request = Request<Data>(method: .post, path: "/notes", body: .json(["text": text]))
        request.options.account = account
        return request
    }

    /// A client with sessions per account (and, when given, its own session) over a queue in
    /// memory, once its queue is attached.
    private func attachedClient(
        _ accounts: AccountSessions, own: AuthSession? = nil, transport: MockTransport
    ) async -> (APIClient, OfflineQueue) {
        let queue = OfflineQueue(storage: MemoryQueueStorage(), clock: ManualClock())
        var configuration = ClientConfiguration(baseURL: base, retryPolicy: .none, auth: own)
        configuration.accounts = accounts
        configuration.offlineQueue = queue
        let client = APIClient(configuration: configuration, transport: transport)
        #expect(await withDeadline(.seconds(10)) { await queue.waitUntil(.attached) } != nil)
        return (client, queue)
    }

    @Test func aRevokedAccountsWritesWaitForItWhileOtherAccountsWritesGo() async throws {
        let accepted = AcceptedTokens(["Bearer bob-token"])
        let transport = origin(accepting: accepted)
        let accounts = AccountSessions(authenticator: RevokedGrant()) { _ in InMemoryCredentialStore() }
        try await accounts.signIn(Credential(accessToken: "alice-old", refreshToken: "r"), account: "alice")
        try await accounts.signIn(Credential(accessToken: "bob-token"), account: "bob")
        let (client, queue) = await attachedClient(accounts, transport: transport)

        // Alice's write comes first in the same named queue; her grant is revoked.
        _ = try await client.enqueue(write("alice's", as: "alice"))
        _ = try await client.enqueue(write("bob's", as: "bob"))
        await queue.replay()

        let bodies = { transport.requests.compactMap { $0.body.map { String(decoding: $0, as: UTF8.self) } } }
        #expect(bodies().contains(#"{"text":"bob's"}"#), "bob's write went although alice's, ahead of it, could not")
        #expect(await queue.accountsWaitingForSignIn == ["alice"])
        #expect(await !queue.isWaitingForSignIn, "the queue as a whole does not wait")
        let pending = try await queue.pending()
        #expect(pending.map(\.account) == ["alice"])
        #expect(pending.first?.attempts == 0, "a 401 does not use up the write's attempts")
        #expect(await queue.scheduledWakeup == nil, "no timer for a write only a sign-in can release")

        // Alice signs in again: her account's write goes, without a call to replay().
        let events = queue.events()
        accepted.accept("Bearer alice-new")
        try await accounts.signIn(Credential(accessToken: "alice-new"), account: "alice")
        for await event in events {
            if case .delivered = event { break }
        }
        #expect(try await queue.pending().isEmpty)
        #expect(transport.requests.last?.request.headerFields[HTTPField.Name.authorization] == "Bearer alice-new")
        #expect(await queue.accountsWaitingForSignIn.isEmpty)
    }

    @Test func withTheDropPolicyAWriteWhoseAccountsCredentialCannotBeReadIsKeptUntilItsStoreSaysNone() async throws {
        let storage = MemoryQueueStorage()
        let clock = ManualClock(mode: .suspending)
        // Carol's write, left by an earlier run; her credential's store does not answer now.
        try await storage.append(QueuedRequest(
            queue: OfflineQueue.defaultQueueName, method: "POST", url: "https://api.example.test/notes", fields: [], body: Data("{}".utf8),
            idempotencyKey: "k", createdAt: clock.date, nextAttemptAt: clock.date, account: "carol"
        ))
        let carols = UnreadableWhileBroken()
        let accounts = AccountSessions(authenticator: RevokedGrant()) { account -> any CredentialStore in account == "carol" ? carols : InMemoryCredentialStore() }
        try await accounts.signIn(Credential(accessToken: "bob-token"), account: "bob")
        let queue = OfflineQueue(storage: storage, clock: clock, otherAccountWrites: .drop)
        var configuration = ClientConfiguration(baseURL: base, retryPolicy: .none)
        configuration.accounts = accounts
        configuration.offlineQueue = queue
        let transport = origin(accepting: AcceptedTokens([]))
        let client = APIClient(configuration: configuration, transport: transport)
        #expect(await withDeadline(.seconds(10)) { await queue.waitUntil(.attached) } != nil)
        await queue.replay()

        // Carol's write was neither sent nor dropped: she may well be signed in.
        #expect(transport.requests.isEmpty)
        #expect(try await queue.pending().map(\.account) == ["carol"])
        // The round sets its timer after its waiters resume: waited for, not assumed. (The
        // clock moves only when told, so the timer is not fired meanwhile.)
        #expect(await withDeadline(.seconds(10)) { await queue.waitUntil(.timerSet) } != nil, "asked again later, not left until a sign-in")
        let recheck = try #require(await queue.scheduledWakeup)
        #expect(recheck == clock.date.addingTimeInterval(OfflineQueue.standingRecheck.timeInterval))

        // Her store answers: it holds no credential, so the policy applies and the write goes.
        let events = queue.events()
        carols.broken.store(false, ordering: .relaxed)
        await queue.replay()
        #expect(try await queue.pending().isEmpty)
        #expect(transport.requests.isEmpty, "dropped, never sent as another account")
        for await event in events {
            if case .dropped = event { break }
        }
        withExtendedLifetime(client) {}
    }

    @Test func aWriteOfAnAccountNotSignedInSetsNoTimerThatWouldFireAtOnceForever() async throws {
        let accepted = AcceptedTokens(["Bearer bob-token"])
        let storage = MemoryQueueStorage()
        let clock = ManualClock()
        // Left by an earlier run of the app, when alice was signed in; due long ago.
        try await storage.append(QueuedRequest(
            queue: OfflineQueue.defaultQueueName, method: "POST", url: "https://api.example.test/notes", fields: [], body: Data("{}".utf8),
            idempotencyKey: "k", createdAt: clock.date.addingTimeInterval(-60), nextAttemptAt: clock.date.addingTimeInterval(-60), account: "alice"
        ))
        let session = AuthSession(authenticator: RevokedGrant())
        try await session.signIn(Credential(accessToken: "bob-token", accountID: "bob"))
        let queue = OfflineQueue(storage: storage, clock: clock)
        var configuration = ClientConfiguration(baseURL: base, retryPolicy: .none, auth: session)
        configuration.offlineQueue = queue
        let transport = origin(accepting: accepted)
        _ = APIClient(configuration: configuration, transport: transport)
        #expect(await withDeadline(.seconds(10)) { await queue.waitUntil(.attached) } != nil)

        #expect(transport.requests.isEmpty, "never sent as bob")
        #expect(await queue.scheduledWakeup == nil, "a timer for it would fire at once, again and again")
        #expect(try await queue.pending().count == 1, "kept for alice")
    }

    @Test func aWriteOfNoAccountRefusedForWantOfSignInGoesWhenTheClientsOwnSessionSignsIn() async throws {
        let accepted = AcceptedTokens(["Bearer bob-token"])
        let transport = origin(accepting: accepted)
        let accounts = AccountSessions(authenticator: RevokedGrant()) { _ in InMemoryCredentialStore() }
        try await accounts.signIn(Credential(accessToken: "bob-token"), account: "bob")
        let own = AuthSession(authenticator: RevokedGrant())
        try await own.signIn(Credential(accessToken: "service-old"))
        let (client, queue) = await attachedClient(accounts, own: own, transport: transport)

        _ = try await client.enqueue(Request<Data>(method: .post, path: "/notes", body: .json(["text": "the service's"])))
        await queue.replay()
        #expect(await queue.accountsWaitingForSignIn == [""])

        let events = queue.events()
        accepted.accept("Bearer service-new")
        try await own.signIn(Credential(accessToken: "service-new"))
        for await event in events {
            if case .delivered = event { break }
        }
        #expect(try await queue.pending().isEmpty)
        #expect(transport.requests.last?.request.headerFields[HTTPField.Name.authorization] == "Bearer service-new")
    }

    @Test func aLiveWriteOfAnAccountIsNotQueuedBehindAWriteOfNoAccountItCouldOvertake() async throws {
        let accepted = AcceptedTokens([])
        accepted.reachable.withLock { $0 = false }
        let transport = origin(accepting: accepted)
        let accounts = AccountSessions(authenticator: RevokedGrant()) { _ in InMemoryCredentialStore() }
        try await accounts.signIn(Credential(accessToken: "alice-token"), account: "alice")
        let (client, queue) = await attachedClient(accounts, transport: transport)

        var anonymous = Request<Data>(method: .post, path: "/notes", body: .json(["text": "anyone's"]))
        anonymous.options.requiresAuth = false
        anonymous.options.isQueueable = true
        guard case .queued = try await client.sendOrQueue(anonymous) else {
            Issue.record("not queued")
            return
        }
        // Alice's writes are kept in order apart from writes of no account: behind that one,
        // hers could go first.
        var hers = write("alice's", as: "alice")
        hers.options.isQueueable = true
        await #expect { try await client.sendOrQueue(hers) } throws: { ($0 as? CourierError)?.code == .queuedWriteAhead }
        #expect(try await queue.pending().count == 1)
    }
}
