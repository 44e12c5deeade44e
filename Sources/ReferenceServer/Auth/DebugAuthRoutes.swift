import Foundation
import Hummingbird

/// Controls over the token system under `/debug/auth`, without authentication, for demos
/// driven over HTTP:
///
/// - `POST /debug/auth/expire-tokens` → 204: every valid access token expires now
/// - `POST /debug/auth/revoke-refresh-tokens` → 204: every refresh token is revoked
/// - `POST /debug/auth/token-lifetime` with `{"seconds": 2}` → 204: the lifetime of new access tokens
/// - `GET /debug/auth/verification-token?email=…` → `{"token": "…"}`, or 404 when there is none pending
struct DebugAuthRoutes: Sendable {
    /// The longest access token lifetime that can be set, in seconds: one day.
    static let maximumLifetimeSeconds: Double = 24 * 60 * 60

    let auth: AuthService

    /// The body of `POST /debug/auth/token-lifetime`.
    private struct LifetimeRequest: Decodable {
        let seconds: Double
    }

    /// Adds the routes to a group mounted at `/debug`.
    func register<Context: RequestContext>(on debug: RouterGroup<Context>) {
        debug.post("auth/expire-tokens") { _, _ in
            await auth.expireAccessTokens()
            return Response.bodiless(status: .noContent)
        }
        debug.post("auth/revoke-refresh-tokens") { _, _ in
            await auth.revokeRefreshTokens()
            return Response.bodiless(status: .noContent)
        }
        debug.post("auth/token-lifetime") { request, _ in
            let body = try await request.decodeJSONBody(as: LifetimeRequest.self)
            guard body.seconds > 0, body.seconds <= Self.maximumLifetimeSeconds else {
                throw APIError.validationFailed("seconds must be above 0 and at most \(Int(Self.maximumLifetimeSeconds))")
            }
            await auth.setAccessTokenLifetime(.milliseconds(Int((body.seconds * 1000).rounded())))
            return Response.bodiless(status: .noContent)
        }
        debug.get("auth/verification-token") { request, _ in
            guard let email = QueryItems(rawQuery: request.uri.query).first("email"), !email.isEmpty else {
                throw APIError.validationFailed("email is required")
            }
            guard let token = await auth.verificationToken(email: email) else {
                throw APIError.notFound("no pending verification for \(email)")
            }
            return try Response.json(["token": token])
        }
    }
}
