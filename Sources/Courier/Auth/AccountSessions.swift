import Foundation

/// Many signed-in accounts in one client: a service that signs calls for thousands of users
/// keeps one ``AuthSession`` per account here instead of one client per account.
///
/// A request names its account with ``RequestOptions/account``; the client signs it with that
/// account's credential, renews that credential alone, keeps its cached responses in that
/// account's partition, counts it against that account's quotas (a ``QuotaRule`` with
/// ``QuotaRule/perAccount``) and, when it is queued, delivers it later as that account.
///
/// ```swift
/// let accounts = AccountSessions(authenticator: MyProviderAuthenticator()) { account in
///     PostgresCredentialStore(database: database, account: account)
/// }
/// var configuration = ClientConfiguration(baseURL: stravaURL)
/// configuration.accounts = accounts
/// let client = APIClient(configuration: configuration, transport: transport)
///
/// var request = Request<Athlete>.get("/api/v3/athlete")
/// request.options.account = athleteID
/// let athlete = try await client.send(request)
/// ```
///
/// Sessions are made on first use, each with the store the factory gives for its account, and
/// kept while the client lives (at most ``capacity`` of them: the one used longest ago is let
/// go first and made again, from its store, when next needed).
public actor AccountSessions {
    /// How credentials are applied and renewed, for every account.
    public nonisolated let authenticator: any Authenticator
    /// The most sessions kept at once.
    public nonisolated let capacity: Int
    private let makeStore: @Sendable (String) -> any CredentialStore
    private let clock: any CourierClock
    private var sessions: [String: AuthSession] = [:]
    /// Accounts by last use, oldest first.
    private var recency: [String] = []
    private nonisolated let changes = EventBroadcast<String>()

    /// Makes the sessions of a client.
    /// - Parameters:
    ///   - authenticator: How credentials are applied and renewed.
    ///   - capacity: The most sessions kept at once (10,000 by default).
    ///   - clock: The time source for expiry.
    ///   - store: The credential store of an account: a `PostgresCredentialStore` to share
    ///     credentials, and their refreshes, with other processes.
    public init(
        authenticator: any Authenticator,
        capacity: Int = 10_000,
        clock: any CourierClock = SystemClock(),
        store: @escaping @Sendable (_ account: String) -> any CredentialStore
    ) {
        self.authenticator = authenticator
        self.capacity = max(1, capacity)
        self.clock = clock
        self.makeStore = store
    }

    /// The session of an account, made on first use from its store.
    /// - Parameter account: The account.
    public func session(for account: String) -> AuthSession {
        if let session = sessions[account] {
            if recency.last != account, let index = recency.lastIndex(of: account) {
                recency.remove(at: index)
                recency.append(account)
            }
            return session
        }
        let session = AuthSession(
            authenticator: authenticator, store: makeStore(account), clock: clock, announce: { [changes] in changes.publish(account) }
        )
        sessions[account] = session
        recency.append(account)
        if recency.count > capacity { sessions[recency.removeFirst()] = nil }
        return session
    }

    /// Signs an account in: saves its credential (naming the account when it names none).
    /// - Parameters:
    ///   - credential: The credential.
    ///   - account: The account.
    public func signIn(_ credential: Credential, account: String) async throws {
        var credential = credential
        if credential.accountID == nil { credential.accountID = account }
        try await session(for: account).signIn(credential)
    }

    /// Signs an account out: forgets its credential here and in its store.
    /// - Parameter account: The account.
    public func signOut(account: String) async throws {
        try await session(for: account).signOut()
    }

    /// Whether an account has a credential (in memory or in its store). A credential that
    /// cannot be read now (its store failed) counts as none here; ``hasCredential(_:)`` tells
    /// the two apart.
    /// - Parameter account: The account.
    public func isSignedIn(_ account: String) async -> Bool {
        (try? await hasCredential(account)) ?? false
    }

    /// Whether an account has a credential (in memory or in its store).
    /// - Parameter account: The account.
    /// - Returns: `false` only when its store says it has none.
    /// - Throws: What the store threw when it could not be read: the account may well be
    ///   signed in, and nothing should be decided as if it were not (the offline queue's
    ///   `.drop` policy keeps its writes).
    public func hasCredential(_ account: String) async throws -> Bool {
        try await session(for: account).credential != nil
    }

    /// Yields an account each time a new credential comes into force for it: a sign-in, a
    /// refresh, or one another process saved in its shared store.
    nonisolated func credentialChanges() -> AsyncStream<String> {
        changes.stream()
    }
}
