import Foundation
import Hummingbird

/// intervals.icu's OAuth token endpoint, `POST /api/oauth/token`, for the refresh grant
/// (RFC 6749, section 6): a form body `grant_type=refresh_token&refresh_token=…` answers a new
/// token pair with the athlete, and the refresh token used stops working (it rotates; using a
/// rotated one again revokes the whole sign-in, as ``TokenLedger`` does for every client).
///
/// Its failures are OAuth's own: 400 `{"error": "invalid_grant", "error_description": …}` for an
/// unknown, expired or reused refresh token, `unsupported_grant_type` and `invalid_request` for
/// a malformed call.
struct IntervalsOAuthRoutes: Sendable {
    /// The answer of the token endpoint.
    struct TokenAnswer: Encodable {
        struct Athlete: Encodable {
            let id: String
            let name: String?
        }

        let access_token: String
        let token_type: String
        let expires_in: Int
        let refresh_token: String?
        let scope: String
        let athlete: Athlete
    }

    /// The body of an OAuth error.
    struct OAuthError: Encodable {
        let error: String
        let error_description: String
    }

    let auth: AuthService
    let store: IntervalsStore

    func register(on router: Router<ReferenceRequestContext>) {
        router.post("api/oauth/token") { request, _ in try await token(request) }
    }

    private func token(_ request: Request) async throws -> Response {
        let buffer = try await request.body.collect(upTo: 16 << 10)
        let form = QueryItems(rawQuery: String(decoding: buffer.readableBytesView, as: UTF8.self).replacingOccurrences(of: "+", with: "%20"))
        guard form.first("grant_type") == "refresh_token" else {
            return try Self.failure("unsupported_grant_type", "only grant_type=refresh_token is supported here")
        }
        guard let refreshToken = form.first("refresh_token"), !refreshToken.isEmpty else {
            return try Self.failure("invalid_request", "refresh_token is missing")
        }
        let tokens: TokenResponse
        do {
            tokens = try await auth.refresh(RefreshTokenRequest(refreshToken: refreshToken))
        } catch {
            return try Self.failure("invalid_grant", "the refresh token is unknown, expired or already used")
        }
        let athlete = TokenAnswer.Athlete(id: await store.athleteId(userId: tokens.user.id), name: tokens.user.displayName)
        return try Response.json(
            TokenAnswer(
                access_token: tokens.accessToken, token_type: "Bearer", expires_in: tokens.expiresIn,
                refresh_token: tokens.refreshToken, scope: "ACTIVITY:WRITE,WELLNESS:WRITE", athlete: athlete
            ),
            headers: [.cacheControl: "no-store"]
        )
    }

    private static func failure(_ error: String, _ description: String) throws -> Response {
        try Response.json(OAuthError(error: error, error_description: description), status: .badRequest, headers: [.cacheControl: "no-store"])
    }
}
