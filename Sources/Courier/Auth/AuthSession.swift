import Foundation
import Synchronization

/// Holds the user's credential and coordinates its refreshes for every request of a client.
///
/// Make one per signed-in user and give it to ``ClientConfiguration/auth``; the auth stage
/// asks it for a credential before each attempt and reports rejections to it.
///
/// - Before expiry (within the authenticator's ``Authenticator/refreshMargin``), the
///   credential is refreshed proactively.
/// - On a 401, requests that failed with the same credential share one refresh; each is then
///   replayed once. A request signed with an older credential is replayed without a refresh.
/// - A refresh the server refuses fails every waiting request with
///   ``CourierError/Code/unauthorized``, and later requests fail at once until ``signIn(_:)``.
/// - More than three refreshes within 30 seconds stop with a loop error.
/// - With a store other processes share (a ``CoordinatedCredentialStore``), a session that has
///   no usable credential (never signed in, signed out, or refused) reads the store again, at
///   most once a second, so that a sign-in another process made is used here too.
/// - Signing out or signing in (as anyone) starts a new *generation*: a refresh that was under
///   way finishes into nothing (it neither saves its credential nor marks the new user failed),
///   and a request rejected with a credential of an earlier generation is not replayed: a 401
///   replay is only ever sent as the account that made the request.
///
/// ```swift
/// let session = AuthSession(authenticator: MyAPIAuthenticator(), store: FileCredentialStore(url: file))
/// try await session.signIn(credentialFromLogin)
/// var configuration = ClientConfiguration(baseURL: url)
/// configuration.auth = session
/// ```
public actor AuthSession {
    /// How credentials are applied and renewed.
    public nonisolated let authenticator: any Authenticator
    private let store: any CredentialStore
    private let clock: any CourierClock
    private var state: RefreshCoordinatorState
    private var loaded = false
    private var refreshTask: Task<Result<Credential, CourierError>, Never>?
    /// Counts sign-ins and sign-outs; work started in one generation does not land in another.
    private var generation = 0
    /// The access tokens this generation has issued, newest last (a few: one per refresh).
    private var generationTokens: [String] = []
    private static let rememberedTokens = 8
    /// The store's writes, one after another in the order the session made them, so that a
    /// refreshed credential saved just before a sign-out can never land after its `clear()`.
    private var storeWrites: Task<Void, Never>?
    /// How many of the session's store writes have not ended: a store being written is not read back.
    private var storeWritesUnderWay = 0
    /// When a shared store was last read for want of a usable credential.
    private var sharedStoreReadAt: Date?
    /// How long a shared store's "no usable credential" holds before it is read again.
    static let sharedStoreRereadInterval: TimeInterval = 1
    private nonisolated let changes = EventBroadcast<Void>()
    /// Told of every new credential too: ``AccountSessions`` names the account to the offline queue.
    private nonisolated let announce: (@Sendable () -> Void)?

    /// Makes a session.
    /// - Parameters:
    ///   - authenticator: How credentials are applied and renewed.
    ///   - store: Where the credential is kept between launches; memory by default.
    ///   - clock: The time source for expiry.
    ///   - maxRefreshes: The most refreshes within `loopWindow` before the loop guard stops.
    ///   - loopWindow: The loop guard's window.
    public init(
        authenticator: any Authenticator,
        store: any CredentialStore = InMemoryCredentialStore(),
        clock: any CourierClock = SystemClock(),
        maxRefreshes: Int = 3,
        loopWindow: Duration = .seconds(30)
    ) {
        self.init(authenticator: authenticator, store: store, clock: clock, maxRefreshes: maxRefreshes, loopWindow: loopWindow, announce: nil)
    }

    /// Makes a session that also calls `announce` whenever a new credential comes into force.
    init(
        authenticator: any Authenticator, store: any CredentialStore, clock: any CourierClock,
        maxRefreshes: Int = 3, loopWindow: Duration = .seconds(30), announce: (@Sendable () -> Void)?
    ) {
        self.authenticator = authenticator
        self.store = store
        self.clock = clock
        self.state = RefreshCoordinatorState(credential: nil, maxRefreshes: maxRefreshes, loopWindow: loopWindow)
        self.announce = announce
    }

    /// The credential in force, loading it from the store on first use.
    public var credential: Credential? {
        get async throws {
            try await loadIfNeeded()
            return state.credential
        }
    }

    /// Yields each time a new credential comes into force: a sign-in, a refresh, or one another
    /// process saved in a shared store. The offline queue listens, to deliver writes it held
    /// back for want of a credential.
    public nonisolated func credentialChanges() -> AsyncStream<Void> {
        changes.stream()
    }

    /// Sets a new credential (after sign-in), saves it, and ends any failed state.
    /// - Parameter credential: The credential.
    public func signIn(_ credential: Credential) async throws {
        try await inOrder { [store] in try await store.save(credential) }
        loaded = true
        startGeneration(with: credential)
        state.signedIn(credential)
        announceChange()
    }

    /// Forgets the credential, here and in the store. Requests fail as unauthorized until
    /// the next ``signIn(_:)``.
    public func signOut() async throws {
        loaded = true
        startGeneration(with: nil)
        state.signedOut()
        try await inOrder { [store] in try await store.clear() }
    }

    /// The credential to sign a request with, refreshed first if it is about to expire.
    /// - Throws: ``CourierError/Code/unauthorized`` when there is no usable credential.
    public func credentialForRequest() async throws -> Credential {
        try await loadIfNeeded()
        return try await perform(state.credentialNeeded(at: clock.date, margin: authenticator.refreshMargin))
    }

    /// The credential to replay a rejected request with: the current one if it is newer than
    /// `rejected`, else the result of one shared refresh.
    /// - Parameter rejected: The credential the server rejected.
    /// - Throws: ``CourierError/Code/unauthorized`` when the credential cannot be renewed.
    public func credentialAfterRejection(of rejected: Credential) async throws -> Credential {
        try await loadIfNeeded()
        guard generationTokens.contains(rejected.accessToken) else {
            throw CourierError(code: .unauthorized, message: "the request was made by an account that is no longer signed in; it is not sent again")
        }
        return try await perform(state.rejected(rejected, at: clock.date))
    }

    /// Runs a store write after the ones requested before it.
    private func inOrder(_ write: @escaping @Sendable () async throws -> Void) async throws {
        let previous = storeWrites
        let task = Task<Result<Void, any Error>, Never> {
            await previous?.value
            do { return .success(try await write()) } catch { return .failure(error) }
        }
        storeWrites = Task { _ = await task.value }
        storeWritesUnderWay += 1
        defer { storeWritesUnderWay -= 1 }
        try await task.value.get()
    }

    private func announceChange() {
        changes.publish(())
        announce?()
    }

    private func startGeneration(with credential: Credential?) {
        generation += 1
        refreshTask = nil
        generationTokens = credential.map { [$0.accessToken] } ?? []
    }

    private func remember(_ credential: Credential) {
        generationTokens.append(credential.accessToken)
        if generationTokens.count > Self.rememberedTokens { generationTokens.removeFirst() }
        announceChange()
    }

    private func changedGeneration() -> CourierError {
        CourierError(code: .unauthorized, message: "the account signed out or changed while its credential was being refreshed")
    }

    private func loadIfNeeded() async throws {
        guard !loaded else { return await rereadSharedStoreIfNeeded() }
        let stored = try await store.load()
        guard !loaded else { return }
        loaded = true
        if let stored {
            startGeneration(with: stored)
            state.signedIn(stored)
        } else if store is any CoordinatedCredentialStore {
            sharedStoreReadAt = clock.date
        }
    }

    /// Reads a shared store again when this session has nothing to sign with (no credential, or
    /// one refused or signed out), at most once per ``sharedStoreRereadInterval``: another
    /// process may have signed the account in since. A store that cannot be read now leaves
    /// the session as it was (the request fails as unauthorized, as it would have).
    private func rereadSharedStoreIfNeeded() async {
        guard store is any CoordinatedCredentialStore, state.credential == nil || state.hasFailed,
              refreshTask == nil, storeWritesUnderWay == 0 else { return }
        let now = clock.date
        if let read = sharedStoreReadAt, now.timeIntervalSince(read) < Self.sharedStoreRereadInterval, now >= read { return }
        sharedStoreReadAt = now
        let started = generation
        guard let stored = try? await store.load() else { return }
        // A sign-in or sign-out here while the store was read: that one stands.
        guard generation == started, storeWritesUnderWay == 0, stored.accessToken != state.credential?.accessToken || state.credential == nil else { return }
        startGeneration(with: stored)
        state.signedIn(stored)
        announceChange()
    }

    private func perform(_ action: RefreshCoordinatorState.Action) async throws -> Credential {
        switch action {
        case .use(let credential):
            return credential
        case .fail(let message):
            throw CourierError(code: .unauthorized, message: message)
        case .join:
            guard let refreshTask else {
                throw CourierError(code: .unauthorized, message: "no refresh is running")
            }
            let joined = generation
            let result = await refreshTask.value
            guard generation == joined else { throw changedGeneration() }
            return try result.get()
        case .startRefresh(let credential):
            let task = Task { [authenticator, store] in await Self.refresh(credential, with: authenticator, store: store) }
            refreshTask = task
            let started = generation
            let result = await task.value
            // A sign-out or sign-in happened meanwhile: the result belongs to nobody now.
            guard generation == started else { throw changedGeneration() }
            refreshTask = nil
            switch result {
            case .success(let fresh):
                state.refreshSucceeded(fresh)
                remember(fresh)
                // A coordinated store saved it already, under its lock.
                if !(store is any CoordinatedCredentialStore) { try? await inOrder { [store] in try await store.save(fresh) } }
                return fresh
            case .failure(let error):
                state.refreshFailed(error.message, isFinal: error.code == .unauthorized)
                throw error
            }
        }
    }

    /// Runs the authenticator's refresh (through the store, when it coordinates refreshes
    /// across processes) and classifies its failure: refused (final, reported as
    /// unauthorized) or passing (network, server, a store that cannot be reached), reported
    /// as it is.
    private static func refresh(
        _ credential: Credential, with authenticator: any Authenticator, store: any CredentialStore
    ) async -> Result<Credential, CourierError> {
        guard let shared = store as? any CoordinatedCredentialStore else {
            do { return .success(try await authenticator.refresh(credential)) } catch { return .failure(classify(error)) }
        }
        let renewal = Mutex<(any Error)?>(nil)
        do {
            return .success(try await shared.refresh(credential) { current in
                do { return try await authenticator.refresh(current) } catch {
                    renewal.withLock { $0 = error }
                    throw error
                }
            })
        } catch {
            if let refused = renewal.withLock({ $0 }) { return .failure(classify(refused)) }
            // The store failed, not the credential: the requests waiting on it fail, the user stays signed in.
            return .failure(CourierError(code: .transportFailed, message: "the credential store could not coordinate the refresh", underlying: error))
        }
    }

    private static func classify(_ error: any Error) -> CourierError {
        if let error = error as? CourierError, error.code.isTransportFailure || error.code == .serverError { return error }
        var refused = CourierError(
            code: .unauthorized,
            message: "the credential could not be refreshed; sign in again",
            underlying: error
        )
        refused.status = (error as? CourierError)?.status
        return refused
    }
}
