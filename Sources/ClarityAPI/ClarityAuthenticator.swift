public import Courier

/// Renews CLARITY credentials with the refresh endpoint; the refresh token rotates each time.
///
/// It sends its refresh calls through its own `APIClient`, which must not carry an
/// `AuthSession` (the refresh endpoint takes no access token).
public struct ClarityAuthenticator: Authenticator {
    private let client: APIClient

    /// Makes an authenticator.
    /// - Parameter client: A client for the CLARITY server without an auth session.
    public init(client: APIClient) {
        self.client = client
    }

    /// Trades the refresh token for a new pair.
    /// - Throws: `CourierError`; a 401 means the refresh token was refused.
    public func refresh(_ credential: Credential) async throws -> Credential {
        guard let refreshToken = credential.refreshToken else {
            throw CourierError(code: .unauthorized, message: "the credential has no refresh token")
        }
        let tokens = try await client.value(for: ClarityAuthEndpoints.refresh(refreshToken: refreshToken))
        return tokens.credential(issuedAt: client.configuration.clock.date)
    }
}
