import ClarityCore
import Hummingbird

/// The CLARITY auth API under `/api/v1/auth`.
///
/// Register, login, refresh and verify-email are open; logout and me need an access token
/// and are mounted behind ``AccessTokenMiddleware``.
struct AuthRoutes: Sendable {
    /// The path of the auth routes, below the server's root.
    static let basePath = "api/v1/auth"

    let auth: AuthService

    /// Adds the routes that need no token to a group mounted at ``basePath``.
    func registerOpenRoutes(on group: RouterGroup<ReferenceRequestContext>) {
        group.post("register") { request, _ in
            let body = try await request.decodeJSONBody(as: RegisterRequest.self)
            return try Response.json(try await auth.register(body), status: .created)
        }
        group.post("login") { request, _ in
            let body = try await request.decodeJSONBody(as: LoginRequest.self)
            return try Response.json(try await auth.login(body))
        }
        group.post("refresh") { request, _ in
            let body = try await request.decodeJSONBody(as: RefreshTokenRequest.self)
            return try Response.json(try await auth.refresh(body))
        }
        group.post("verify-email") { request, _ in
            let body = try await request.decodeJSONBody(as: VerifyEmailRequest.self)
            return try Response.json(try await auth.verifyEmail(body))
        }
    }

    /// Adds the routes that need an access token to a group mounted at `/api`, behind authentication.
    func registerAuthenticatedRoutes(on api: RouterGroup<ReferenceRequestContext>) {
        api.post("v1/auth/logout") { request, context in
            // CLARITY's checklist signs out with no body; a client that sends its refresh
            // token gets that revoked too. Either way the sign-in the access token belongs to ends.
            let body = try await request.decodeOptionalJSONBody(as: LogoutRequest.self)
            let userId = try context.requireUserId()
            if let accessToken = context.accessToken {
                await auth.logout(accessToken: accessToken, userId: userId, refreshToken: body?.refreshToken)
            }
            return try Response.json(MessageResponse(message: "Signed out"))
        }
        api.get("v1/auth/me") { _, context in
            let userId = try context.requireUserId()
            guard let user = await auth.user(id: userId) else { throw APIError.unauthorized("unknown user") }
            return try Response.json(user)
        }
    }
}
