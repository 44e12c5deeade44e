public import Courier
import Foundation
import HTTPTypes

/// Renews CLARITY credentials at `POST /api/v1/auth/refresh`, sending the refresh token as
/// `Authorization: Bearer <refresh token>` (the service also takes it in a JSON body; its
/// document shows neither). The refresh token rotates: the one sent stops working, and the
/// session stores the new one before any call uses it.
///
/// It sends its calls through its own `APIClient`, which must not carry an `AuthSession`, and
/// whose base URL is the service's origin.
public struct ClarityAuthenticator: Authenticator {
    private let client: APIClient

    /// Makes an authenticator.
    /// - Parameter client: A client for the CLARITY server's origin without an auth session.
    public init(client: APIClient) {
        self.client = client
    }

    /// Trades the refresh token for a new pair; the account stays the credential's.
    /// - Throws: `CourierError`; a 401 means the refresh token was refused.
    public func refresh(_ credential: Credential) async throws -> Credential {
        guard let refreshToken = credential.refreshToken else {
            throw CourierError(code: .unauthorized, message: "the credential has no refresh token")
        }
        let tokens = try await client.value(for: Self.refreshRequest(refreshToken: refreshToken))
        return tokens.credential(issuedAt: client.configuration.clock.date, accountID: credential.accountID)
    }

    /// The refresh call: unsigned by the session, never retried (a retry could send a rotated
    /// token twice), the refresh token in `Authorization`.
    static func refreshRequest(refreshToken: String) -> Request<ClarityTokens> {
        var request = Request<ClarityTokens>(
            method: .post, path: "/api/v1/auth/refresh",
            options: RequestOptions(requiresAuth: false, retryPolicy: RetryPolicy.none), name: "refresh_token_api_v1_auth_refresh_post"
        )
        request.headers[.authorization] = "Bearer \(refreshToken)"
        return request
    }
}
