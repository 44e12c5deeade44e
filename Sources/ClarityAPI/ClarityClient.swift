public import ClarityOpenAPI
public import Courier
public import Foundation
import CourierOpenAPI
import OpenAPIRuntime

/// A client for CLARITY's backend as its published OpenAPI document defines it: seed 002's
/// checklist methods, on the client generated from that document (`ClarityOpenAPI`), sent
/// through a Courier chain.
///
/// The base URL may be the server (`https://clarity.example`) or the API root as seed 002
/// gives it (`https://clarity.example/api/v1`); either way the calls go to `/api/v1/…` once.
///
/// ```swift
/// let clarity = ClarityClient(baseURL: url, transport: transport, store: FileCredentialStore(url: file))
/// let me = try await clarity.signIn(email: "demo@courier.dev", password: "courier-demo")
/// for try await page in clarity.healthData(pageSize: 100) { chart.add(page.items) }
/// ```
///
/// Sign-in, registration and refresh go out unsigned; every other call is signed by the
/// ``session``, which refreshes once for all the calls that meet an expired token (401 → one
/// refresh → one replay) and stores the rotated refresh token. Every failure is a
/// `CourierError`: a status the client does not accept carries the service's message and
/// code (FastAPI's `detail`, its validation list, an RFC 9457 problem, or `ErrorResponse`);
/// an answer that breaks the document is `CourierError.Code.decodingFailed` naming the field.
public struct ClarityClient: Sendable {
    /// The API's root on the server: `/api/v1`.
    public static let root = APIRoot("/api/v1")

    /// The client that sends signed requests; its base URL is the server's origin.
    public let client: APIClient
    /// The signed-in user's session.
    public let session: AuthSession
    /// The generated client, on ``client``'s chain.
    let api: Client
    /// The generated client on a chain without the session, for sign-in and registration.
    let unsignedAPI: Client
    let unsignedClient: APIClient

    /// Makes a CLARITY client.
    /// - Parameters:
    ///   - baseURL: The server, with or without the `/api/v1` root.
    ///   - transport: The engine, shared by signed and unsigned calls.
    ///   - store: Where the credential is kept.
    ///   - configure: Changes to the default configuration (middleware, cache, offline queue,
    ///     retry policy, clock).
    public init(
        baseURL: URL,
        transport: any Transport,
        store: any CredentialStore = InMemoryCredentialStore(),
        configure: (inout ClientConfiguration) -> Void = { _ in }
    ) {
        var unsigned = ClientConfiguration(baseURL: baseURL)
        configure(&unsigned)
        // The generated client writes whole paths (/api/v1/…): the client's base is the origin.
        unsigned.baseURL = Self.root.serverURL(for: unsigned.baseURL)
        var signed = unsigned
        // Sign-in and refresh calls are never queued: the offline queue serves the signed client.
        unsigned.auth = nil
        unsigned.offlineQueue = nil
        let unsignedClient = APIClient(configuration: unsigned, transport: transport)
        let session = AuthSession(authenticator: ClarityAuthenticator(client: unsignedClient), store: store, clock: unsigned.clock)
        signed.auth = session
        let client = APIClient(configuration: signed, transport: transport)
        self.unsignedClient = unsignedClient
        self.session = session
        self.client = client
        self.api = Self.generatedClient(on: client)
        self.unsignedAPI = Self.generatedClient(on: unsignedClient)
    }

    private static func generatedClient(on client: APIClient) -> Client {
        var transport = CourierClientTransport(client: client, options: ClarityOperationOptions.options(for:))
        transport.failsOnUnacceptedStatus = true
        return Client(serverURL: client.configuration.baseURL, configuration: Configuration(dateTranscoder: ClarityDateTranscoder()), transport: transport)
    }

    // MARK: - Auth (/api/v1/auth)

    /// What registering did: signed the new account in, or asked it to confirm its email first
    /// (the service answers 202 `{"requires_email_verification": true}` and no tokens).
    public enum Registration: Sendable, Hashable {
        /// The account is signed in.
        case signedIn(ClarityUserInfo)
        /// The account must confirm its email with ``ClarityClient/verifyEmail(email:code:)``,
        /// then sign in.
        case confirmationRequired
    }

    /// Signs in (seed 002's `login`): `POST /api/v1/auth/login`, then `GET /api/v1/auth/me`;
    /// keeps the credential, with the user's id as its account.
    /// - Returns: The signed-in user.
    /// - Throws: `CourierError`; 401 for a wrong email or password, 403 when the email is not
    ///   confirmed, 429 while the account is locked.
    @discardableResult
    public func signIn(email: String, password: String) async throws -> ClarityUserInfo {
        let tokens = try await ClarityCall.run("login") {
            try await unsignedAPI.loginApiV1AuthLoginPost(body: .json(.init(email: email, password: password))).ok.body.json
        }
        return try await keep(tokens)
    }

    /// Creates an account (seed 002's `register`): `POST /api/v1/auth/register`.
    /// - Parameters:
    ///   - email: The account's email.
    ///   - password: Its password.
    ///   - displayName: The name shown for the user, if any.
    /// - Returns: Signed in, or waiting for the email to be confirmed.
    /// - Throws: `CourierError`; 409 when the email is taken, 422 for an invalid one.
    @discardableResult
    public func register(email: String, password: String, displayName: String? = nil) async throws -> Registration {
        let output = try await ClarityCall.run("register") {
            try await unsignedAPI.registerApiV1AuthRegisterPost(body: .json(.init(displayName: displayName, email: email, password: password)))
        }
        if case .undocumented(statusCode: 202, _) = output { return .confirmationRequired }
        let tokens = try await ClarityCall.run("register") { try output.ok.body.json }
        return .signedIn(try await keep(tokens))
    }

    /// Signs out (seed 002's `logout`): `POST /api/v1/auth/logout` revokes the sign-in on the
    /// server, and the credential is forgotten here even when the server cannot be reached.
    public func signOut() async throws {
        if (try? await session.credential) != nil {
            _ = try? await ClarityCall.run("logout") { try await api.logoutApiV1AuthLogoutPost().ok.body.json }
        }
        try await session.signOut()
    }

    /// The signed-in user (seed 002's `getCurrentUser`): `GET /api/v1/auth/me`.
    public func currentUser() async throws -> ClarityUserInfo {
        try await ClarityCall.run("me") { try await api.getCurrentUserInfoApiV1AuthMeGet().ok.body.json }
    }

    /// Confirms an email address with the code sent to it (seed 002's `verifyEmail`):
    /// `POST /api/v1/auth/confirm-email`, which also needs the address.
    /// - Returns: The service's status.
    @discardableResult
    public func verifyEmail(email: String, code: String) async throws -> ClarityStatusResponse {
        try await ClarityCall.run("confirm-email") {
            try await unsignedAPI.confirmEmailApiV1AuthConfirmEmailPost(body: .json(.init(code: code, email: email))).ok.body.json
        }
    }

    /// Keeps a token pair: signs the session in, reads the user, and keeps the credential with
    /// the user's id as its account (the cache partition and queued writes follow it).
    private func keep(_ tokens: ClarityTokens) async throws -> ClarityUserInfo {
        let issued = unsignedClient.configuration.clock.date
        try await session.signIn(tokens.credential(issuedAt: issued))
        let user = try await currentUser()
        try await session.signIn(tokens.credential(issuedAt: issued, accountID: user.userId))
        return user
    }
}

extension Components.Schemas.TokenResponse {
    /// The token pair as a Courier `Credential`, expiring `expiresIn` seconds after `issuedAt`.
    /// - Parameters:
    ///   - issuedAt: When the answer arrived.
    ///   - accountID: The user the tokens belong to, when known.
    public func credential(issuedAt: Date, accountID: String? = nil) -> Credential {
        Credential(
            accessToken: accessToken, refreshToken: refreshToken,
            expiresAt: issuedAt.addingTimeInterval(TimeInterval(expiresIn)), accountID: accountID, issuedAt: issuedAt
        )
    }
}
