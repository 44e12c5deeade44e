import ClarityOpenAPI
import Foundation
import OpenAPIRuntime

/// CLARITY's authentication operations under `/api/v1/auth` (the tokens also sign the Radar
/// and intervals routes):
///
/// - register and login answer `TokenResponse`; refresh takes the refresh token as
///   `Authorization: Bearer <refresh token>` or in a JSON body `{"refresh_token": …}` (the
///   document shows neither), rotates it, and answers 422 `missing_refresh_token` without one;
/// - confirm-email, resend-confirmation, forgot-password and reset-password answer
///   `StatusResponse`; the two that send mail answer the same whether or not an account has the
///   address, so they tell no one which accounts exist;
/// - behind the access token: `GET me` (`UserInfoResponse`), `PUT me` (`UserUpdateResponse`),
///   logout (`LogoutResponse`).
extension ClarityService {
    func registerApiV1AuthRegisterPost(_ input: Operations.RegisterApiV1AuthRegisterPost.Input) async throws -> Operations.RegisterApiV1AuthRegisterPost.Output {
        guard case .json(let body) = input.body else { throw APIError.requestInvalid("missing", at: ["body"], "Field required") }
        let tokens = try await auth.register(RegisterRequest(email: body.email, password: body.password, displayName: body.displayName))
        try ClarityCall.running().respond(.cacheControl, "no-store")
        return .ok(.init(body: .json(ClarityWire.tokens(tokens))))
    }

    func loginApiV1AuthLoginPost(_ input: Operations.LoginApiV1AuthLoginPost.Input) async throws -> Operations.LoginApiV1AuthLoginPost.Output {
        guard case .json(let body) = input.body else { throw APIError.requestInvalid("missing", at: ["body"], "Field required") }
        let tokens = try await auth.login(LoginRequest(email: body.email, password: body.password))
        try ClarityCall.running().respond(.cacheControl, "no-store")
        return .ok(.init(body: .json(ClarityWire.tokens(tokens))))
    }

    func refreshTokenApiV1AuthRefreshPost(_ input: Operations.RefreshTokenApiV1AuthRefreshPost.Input) async throws -> Operations.RefreshTokenApiV1AuthRefreshPost.Output {
        struct RefreshBody: Decodable {
            let refreshToken: String?
            enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
        }
        let call = try ClarityCall.running()
        var token = call.request.headerFields[.authorization].flatMap(AccessTokenMiddleware.bearerToken(in:))
        if token == nil { token = try call.decodedBody(as: RefreshBody.self)?.refreshToken }
        guard let token, !token.isEmpty else {
            throw APIError(status: .unprocessableContent, code: "missing_refresh_token", message: "send the refresh token as Authorization: Bearer <token> or {\"refresh_token\": …}")
        }
        let tokens = try await auth.refresh(RefreshTokenRequest(refreshToken: token))
        call.respond(.cacheControl, "no-store")
        return .ok(.init(body: .json(ClarityWire.tokens(tokens))))
    }

    func confirmEmailApiV1AuthConfirmEmailPost(_ input: Operations.ConfirmEmailApiV1AuthConfirmEmailPost.Input) async throws -> Operations.ConfirmEmailApiV1AuthConfirmEmailPost.Output {
        guard case .json(let body) = input.body else { throw APIError.requestInvalid("missing", at: ["body"], "Field required") }
        try await auth.confirmEmail(email: body.email, code: body.code)
        return .ok(.init(body: .json(.init(status: "email_confirmed"))))
    }

    func resendConfirmationApiV1AuthResendConfirmationPost(_ input: Operations.ResendConfirmationApiV1AuthResendConfirmationPost.Input) async throws -> Operations.ResendConfirmationApiV1AuthResendConfirmationPost.Output {
        guard case .json(let body) = input.body else { throw APIError.requestInvalid("missing", at: ["body"], "Field required") }
        try Self.validateEmail(body.email)
        await auth.resendConfirmation(email: body.email)
        return .ok(.init(body: .json(.init(status: "sent"))))
    }

    func forgotPasswordApiV1AuthForgotPasswordPost(_ input: Operations.ForgotPasswordApiV1AuthForgotPasswordPost.Input) async throws -> Operations.ForgotPasswordApiV1AuthForgotPasswordPost.Output {
        guard case .json(let body) = input.body else { throw APIError.requestInvalid("missing", at: ["body"], "Field required") }
        try Self.validateEmail(body.email)
        await auth.forgotPassword(email: body.email)
        return .ok(.init(body: .json(.init(status: "sent"))))
    }

    func resetPasswordApiV1AuthResetPasswordPost(_ input: Operations.ResetPasswordApiV1AuthResetPasswordPost.Input) async throws -> Operations.ResetPasswordApiV1AuthResetPasswordPost.Output {
        guard case .json(let body) = input.body else { throw APIError.requestInvalid("missing", at: ["body"], "Field required") }
        try Self.validateEmail(body.email)
        guard body.newPassword.count >= AuthService.minimumPasswordLength else {
            throw APIError.requestInvalid("string_too_short", at: ["body", "new_password"], "String should have at least \(AuthService.minimumPasswordLength) characters")
        }
        try await auth.resetPassword(email: body.email, code: body.code, newPassword: body.newPassword)
        return .ok(.init(body: .json(.init(status: "reset"))))
    }

    func getCurrentUserInfoApiV1AuthMeGet(_ input: Operations.GetCurrentUserInfoApiV1AuthMeGet.Input) async throws -> Operations.GetCurrentUserInfoApiV1AuthMeGet.Output {
        guard let user = await auth.user(id: try ClarityCall.userId()) else { throw APIError.unauthorized("Authentication required") }
        try ClarityCall.running().respond(.cacheControl, "no-store")
        return .ok(.init(body: .json(ClarityWire.user(user))))
    }

    func updateUserApiV1AuthMePut(_ input: Operations.UpdateUserApiV1AuthMePut.Input) async throws -> Operations.UpdateUserApiV1AuthMePut.Output {
        guard case .json(let body) = input.body else { throw APIError.requestInvalid("missing", at: ["body"], "Field required") }
        let user = try await auth.updateUser(id: try ClarityCall.userId(), displayName: body.displayName, email: body.email)
        try ClarityCall.running().respond(.cacheControl, "no-store")
        return .ok(.init(body: .json(.init(displayName: user.displayName, email: user.email, updated: true, userId: user.id))))
    }

    func logoutApiV1AuthLogoutPost(_ input: Operations.LogoutApiV1AuthLogoutPost.Input) async throws -> Operations.LogoutApiV1AuthLogoutPost.Output {
        // The document's logout takes no body; a client that sends its refresh token gets that
        // revoked too. Either way the sign-in the access token belongs to ends.
        struct LogoutBody: Decodable {
            let refreshToken: String?
            enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
        }
        let call = try ClarityCall.running()
        guard let caller = call.caller else { throw APIError.unauthorized("Authentication required") }
        let body = try call.decodedBody(as: LogoutBody.self)
        await auth.logout(accessToken: caller.accessToken, userId: caller.userId, refreshToken: body?.refreshToken)
        return .ok(.init(body: .json(.init(message: "Successfully logged out"))))
    }

    func authHealthApiV1AuthHealthGet(_ input: Operations.AuthHealthApiV1AuthHealthGet.Input) async throws -> Operations.AuthHealthApiV1AuthHealthGet.Output {
        try ClarityCall.running().respond(.cacheControl, "no-store")
        return .ok(.init(body: .json(.init(service: "authentication", status: "healthy", version: "1.0.0"))))
    }

    // MARK: - Wire forms

    /// A 422 for an address that is not one, located at the body's `email`.
    static func validateEmail(_ email: String) throws {
        do {
            try AuthService.validateEmail(email)
        } catch let error as APIError {
            throw APIError.requestInvalid("value_error", at: ["body", "email"], error.message)
        }
    }
}
