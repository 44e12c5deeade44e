import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// Signing out and switching users while work is in flight: nothing of one account is ever
/// sent as, or written over, another. Policy tests on mock transports.
@Suite("Accounts: sign-out and switching users")
struct AccountSwitchTests {
    /// An authenticator whose refresh waits until the test lets it finish.
    final class GatedAuthenticator: Authenticator {
        private let gate: AsyncStream<Void>
        private let open: AsyncStream<Void>.Continuation
        private let started: AsyncStream<Void>.Continuation
        let refreshStarted: AsyncStream<Void>

        init() {
            (gate, open) = AsyncStream<Void>.makeStream()
            (refreshStarted, started) = AsyncStream<Void>.makeStream()
        }

        func letRefreshFinish() { open.yield() }

        func refresh(_ credential: Credential) async throws -> Credential {
            started.yield()
            for await _ in gate { break }
            return Credential(accessToken: credential.accessToken + "-refreshed", refreshToken: "r", accountID: credential.accountID)
        }
    }

    static func credential(_ account: String) -> Credential {
        Credential(accessToken: "token-\(account)", refreshToken: "refresh-\(account)", accountID: account)
    }

    /// Starts a call that alice's token gets a 401 for, and returns once its refresh has begun.
    private func callThatMeetsA401(
        session: AuthSession, authenticator: GatedAuthenticator
    ) async -> (MockTransport, Task<Response<Data>, any Error>) {
        let transport = MockTransport { request, _ in
            request.headerFields[.authorization] == "Bearer token-alice" ? .status(.unauthorized) : .status(.ok)
        }
        let client = APIClient(configuration: ClientConfiguration(baseURL: URL(string: "https://a.test")!, retryPolicy: .none, auth: session), transport: transport)
        let call = Task { try await client.send(Request<Data>(path: "/me")) }
        var started = authenticator.refreshStarted.makeAsyncIterator()
        _ = await started.next()
        return (transport, call)
    }

    @Test func aRefreshThatEndsAfterSignOutWritesNothingBack() async throws {
        let authenticator = GatedAuthenticator()
        let store = InMemoryCredentialStore()
        let session = AuthSession(authenticator: authenticator, store: store)
        try await session.signIn(Self.credential("alice"))
        let (transport, call) = await callThatMeetsA401(session: session, authenticator: authenticator)
        try await session.signOut()
        authenticator.letRefreshFinish()
        let outcome = await call.result
        #expect((outcome.error as? CourierError)?.code == .unauthorized)
        #expect(try await session.credential == nil, "the refreshed credential was not put back")
        #expect(try await store.load() == nil, "nor saved")
        #expect(transport.requests.count == 1, "the request was not replayed after the sign-out")
    }

    @Test func aRefreshThatEndsAfterAnotherUserSignsInLeavesThatUserAlone() async throws {
        let authenticator = GatedAuthenticator()
        let session = AuthSession(authenticator: authenticator)
        try await session.signIn(Self.credential("alice"))
        let (transport, call) = await callThatMeetsA401(session: session, authenticator: authenticator)
        try await session.signIn(Self.credential("bob"))
        authenticator.letRefreshFinish()
        _ = await call.result
        #expect(try await session.credential?.accountID == "bob")
        #expect(try await session.credentialForRequest().accessToken == "token-bob", "bob is not marked failed")
        #expect(!transport.requests.contains { $0.request.headerFields[.authorization] == "Bearer token-bob" }, "alice's request was never sent as bob")
    }

    @Test func a401IsNotReplayedAsTheAccountThatSignedInMeanwhile() async throws {
        let session = AuthSession(authenticator: GatedAuthenticator())
        try await session.signIn(Self.credential("alice"))
        let transport = MockTransport { request, _ in
            if request.headerFields[.authorization] == "Bearer token-alice" {
                try await session.signIn(Self.credential("bob"))   // bob signs in while alice's request is out
                return .status(.unauthorized)
            }
            return .status(.ok)
        }
        let client = APIClient(configuration: ClientConfiguration(baseURL: URL(string: "https://a.test")!, retryPolicy: .none, auth: session), transport: transport)
        let error = await #expect(throws: CourierError.self) { try await client.send(Request<Data>(path: "/me")) }
        #expect(error?.code == .unauthorized)
        #expect(transport.requests.count == 1)
    }

    @Test func aQueuedWriteWaitsForItsAccountAndIsNeverSentAsAnother() async throws {
        let session = AuthSession(authenticator: GatedAuthenticator())
        try await session.signIn(Self.credential("alice"))
        let queue = OfflineQueue(storage: MemoryQueueStorage())
        let monitor = ConnectivityMonitor()
        let transport = MockTransport { _, _ in .status(.created) }
        var configuration = ClientConfiguration(baseURL: URL(string: "https://a.test")!, retryPolicy: .none, auth: session)
        configuration.offlineQueue = queue
        configuration.connectivity = monitor
        let client = APIClient(configuration: configuration, transport: transport)
        monitor.report(.pathChanged(.offline))
        var write = Request<Data>(method: .post, path: "/notes", body: .json(["text": "alice's"]))
        write.options.isQueueable = true
        guard case .queued = try await client.sendOrQueue(write) else { Issue.record("not queued"); return }
        #expect(try await queue.pending().first?.account == "alice")

        try await client.signOut()
        try await session.signIn(Self.credential("bob"))
        monitor.report(.pathChanged(.online))
        await queue.replay()
        #expect(transport.requests.isEmpty, "not delivered while bob is signed in")
        #expect(try await queue.pending().count == 1, "kept for alice")

        try await session.signIn(Self.credential("alice"))
        await queue.replay()
        #expect(transport.requests.map { $0.request.headerFields[.authorization] } == ["Bearer token-alice"])
        #expect(try await queue.pending().isEmpty)
    }

    @Test func withTheDropPolicyAnotherAccountsWriteIsDeletedAndReported() async throws {
        let session = AuthSession(authenticator: GatedAuthenticator())
        try await session.signIn(Self.credential("alice"))
        let queue = OfflineQueue(storage: MemoryQueueStorage(), otherAccountWrites: .drop)
        let monitor = ConnectivityMonitor()
        let transport = MockTransport { _, _ in .status(.created) }
        var configuration = ClientConfiguration(baseURL: URL(string: "https://a.test")!, retryPolicy: .none, auth: session)
        configuration.offlineQueue = queue
        configuration.connectivity = monitor
        let client = APIClient(configuration: configuration, transport: transport)
        var events = queue.events().makeAsyncIterator()
        monitor.report(.pathChanged(.offline))
        var write = Request<Data>(method: .post, path: "/notes", body: .json(["text": "alice's"]))
        write.options.isQueueable = true
        _ = try await client.sendOrQueue(write)
        try await session.signIn(Self.credential("bob"))
        monitor.report(.pathChanged(.online))
        await queue.replay()
        // Two events were published before `replay()` returned: queued, then dropped.
        guard case .queued = await events.next() else { Issue.record("expected .queued first"); return }
        guard case .dropped = await events.next() else { Issue.record("expected .dropped"); return }
        #expect(transport.requests.isEmpty)
        #expect(try await queue.pending().isEmpty)
    }

    @Test func signOutRemovesTheUsersCachedResponsesAndCredential() async throws {
        let session = AuthSession(authenticator: GatedAuthenticator())
        try await session.signIn(Self.credential("alice"))
        let storage = MemoryCacheStorage()
        let transport = MockTransport { _, _ in MockResponse(headers: [.cacheControl: "private, max-age=60"], body: Data("{}".utf8)) }
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: URL(string: "https://a.test")!, cache: HTTPCache(storage: storage), auth: session),
            transport: transport
        )
        _ = try await client.send(Request<Data>(path: "/me"))
        _ = try await client.send(Request<Data>(path: "/settings"))
        var shared = Request<Data>(path: "/public")
        shared.options.requiresAuth = false
        _ = try await client.send(shared)
        #expect(storage.usage.entries == 3)
        try await client.signOut()
        #expect(storage.usage.entries == 1, "only the unsigned response is left")
        #expect(try await session.credential == nil)
    }
}

extension Result {
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
