public import ClarityCore
public import Courier
public import Foundation

/// A client for the CLARITY API: signs in, keeps the credential fresh, and signs every call.
///
/// The base URL may be the server (`https://clarity.example`) or, as seed 002 gives it, the API
/// root (`https://clarity.example/api/v1`); either way the client's base URL ends in `/api/v1`
/// once, and every CLARITY path is relative to it.
///
/// ```swift
/// let clarity = ClarityClient(baseURL: url, transport: transport, store: FileCredentialStore(url: file))
/// try await clarity.signIn(email: "demo@courier.dev", password: "courier-demo")
/// let me = try await clarity.currentUser()
/// ```
public struct ClarityClient: Sendable {
    /// The client that sends signed requests.
    public let client: APIClient
    /// The signed-in user's session.
    public let session: AuthSession
    private let unsignedClient: APIClient

    /// Makes a CLARITY client.
    /// - Parameters:
    ///   - baseURL: The server, with or without the `/api/v1` root.
    ///   - transport: The engine, shared by signed and unsigned calls.
    ///   - store: Where the credential is kept.
    ///   - configure: Changes to the default configuration (middleware, retry policy, clock).
    public init(
        baseURL: URL,
        transport: any Transport,
        store: any CredentialStore = InMemoryCredentialStore(),
        configure: (inout ClientConfiguration) -> Void = { _ in }
    ) {
        var unsigned = ClientConfiguration(baseURL: baseURL)
        configure(&unsigned)
        unsigned.baseURL = ClarityAuthEndpoints.root.baseURL(for: unsigned.baseURL)
        var signed = unsigned
        // Sign-in and refresh calls are never queued: the offline queue serves the signed client.
        unsigned.auth = nil
        unsigned.offlineQueue = nil
        let unsignedClient = APIClient(configuration: unsigned, transport: transport)
        let session = AuthSession(authenticator: ClarityAuthenticator(client: unsignedClient), store: store, clock: unsigned.clock)
        signed.auth = session
        self.unsignedClient = unsignedClient
        self.session = session
        self.client = APIClient(configuration: signed, transport: transport)
    }

    /// Signs in and keeps the credential.
    /// - Returns: The signed-in user.
    @discardableResult
    public func signIn(email: String, password: String) async throws -> ClarityUser {
        let tokens = try await unsignedClient.value(for: ClarityAuthEndpoints.login(email: email, password: password))
        try await session.signIn(tokens.credential(issuedAt: unsignedClient.configuration.clock.date))
        return tokens.user
    }

    /// Creates an account, signs it in and keeps the credential.
    /// - Returns: The new user.
    @discardableResult
    public func register(_ registration: RegisterRequest) async throws -> ClarityUser {
        let tokens = try await unsignedClient.value(for: ClarityAuthEndpoints.register(registration))
        try await session.signIn(tokens.credential(issuedAt: unsignedClient.configuration.clock.date))
        return tokens.user
    }

    /// Revokes the credential on the server and forgets it here, even if the server cannot be reached.
    public func signOut() async throws {
        if let refreshToken = try? await session.credential?.refreshToken {
            _ = try? await client.send(ClarityAuthEndpoints.logout(refreshToken: refreshToken))
        }
        try await session.signOut()
    }

    /// The signed-in user.
    public func currentUser() async throws -> ClarityUser {
        try await client.value(for: ClarityAuthEndpoints.currentUser())
    }

    /// Confirms an email address with the code sent to it.
    /// - Returns: The server's confirmation.
    /// - Throws: `CourierError`; a 400 when the code is unknown or already used.
    @discardableResult
    public func verifyEmail(code: String) async throws -> MessageResponse {
        try await unsignedClient.value(for: ClarityAuthEndpoints.verifyEmail(code: code))
    }
}
