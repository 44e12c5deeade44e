import ClarityCore
import ClarityOpenAPI
import Foundation
import Hummingbird

/// CLARITY's authentication routes under `/api/v1/auth`, as the backend's published document
/// gives them (the tokens also sign the Radar and intervals routes):
///
/// - `POST register` (`UserRegister`) and `POST login` (`UserLoginRequest`) answer
///   `TokenResponse` (`access_token`, `refresh_token`, `token_type`, `expires_in`, `scope`);
/// - `POST refresh` takes the refresh token as `Authorization: Bearer <refresh token>` or in a
///   JSON body `{"refresh_token": …}`, answers a new `TokenResponse` (the token used rotates),
///   and 422 `missing_refresh_token` when it has neither;
/// - `POST confirm-email` (`EmailConfirmationRequest {email, code}`) answers `StatusResponse`;
/// - behind the access token: `GET me` answers `UserInfoResponse`, `POST logout`
///   `LogoutResponse {message}`.
struct AuthRoutes: Sendable {
    /// Where the open routes live.
    static let basePath = "api/v1/auth"

    let auth: AuthService

    /// The refresh token of a JSON refresh body.
    private struct RefreshBody: Decodable {
        let refreshToken: String?
        enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
    }

    /// Adds the routes that need no access token to a group mounted at ``basePath``.
    func registerOpenRoutes(on group: RouterGroup<ReferenceRequestContext>) {
        group.post("register") { request, _ in
            let body = try await request.decodeJSONBody(as: Components.Schemas.UserRegister.self)
            let tokens = try await auth.register(RegisterRequest(email: body.email, password: body.password, displayName: body.displayName))
            return try Response.json(ClarityWire.tokens(tokens), headers: [.cacheControl: "no-store"])
        }
        group.post("login") { request, _ in
            let body = try await request.decodeJSONBody(as: Components.Schemas.UserLoginRequest.self)
            let tokens = try await auth.login(LoginRequest(email: body.email, password: body.password))
            return try Response.json(ClarityWire.tokens(tokens), headers: [.cacheControl: "no-store"])
        }
        group.post("refresh") { request, _ in
            var token = request.headers[.authorization].flatMap(AccessTokenMiddleware.bearerToken(in:))
            if token == nil { token = try await request.decodeOptionalJSONBody(as: RefreshBody.self)?.refreshToken }
            guard let token, !token.isEmpty else {
                throw APIError(status: .unprocessableContent, code: "missing_refresh_token", message: "send the refresh token as Authorization: Bearer <token> or {\"refresh_token\": …}")
            }
            let tokens = try await auth.refresh(RefreshTokenRequest(refreshToken: token))
            return try Response.json(ClarityWire.tokens(tokens), headers: [.cacheControl: "no-store"])
        }
        group.post("confirm-email") { request, _ in
            let body = try await request.decodeJSONBody(as: Components.Schemas.EmailConfirmationRequest.self)
            try await auth.confirmEmail(email: body.email, code: body.code)
            return try Response.json(Components.Schemas.StatusResponse(status: "email_confirmed"))
        }
    }

    /// Adds the routes that need an access token to the group mounted at `/api`.
    func registerAuthenticatedRoutes(on api: RouterGroup<ReferenceRequestContext>) {
        api.post("v1/auth/logout") { request, context in
            // The document's logout takes no body; a client that sends its refresh token gets
            // that revoked too. Either way the sign-in the access token belongs to ends.
            let body = try await request.decodeOptionalJSONBody(as: RefreshBody.self)
            let userId = try context.requireUserId()
            if let accessToken = context.accessToken {
                await auth.logout(accessToken: accessToken, userId: userId, refreshToken: body?.refreshToken)
            }
            return try Response.json(Components.Schemas.LogoutResponse(message: "Successfully logged out"))
        }
        api.get("v1/auth/me") { _, context in
            let userId = try context.requireUserId()
            guard let user = await auth.user(id: userId) else { throw APIError.unauthorized("unknown user") }
            return try Response.json(ClarityWire.user(user), headers: [.cacheControl: "no-store"])
        }
    }
}
