import ClarityOpenAPI

/// CLARITY's token answer, as the reference server's raw-HTTP tests read it: the document's
/// `TokenResponse`.
typealias WireTokens = Components.Schemas.TokenResponse
/// CLARITY's user answer, `GET /api/v1/auth/me`: the document's `UserInfoResponse`.
typealias WireUser = Components.Schemas.UserInfoResponse

/// A JSON refresh (or logout) body as the service takes it: `{"refresh_token": …}`.
struct RefreshBody: Encodable {
    let refreshToken: String
    enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
}

/// A sign-in body: `UserLoginRequest {email, password}`.
func loginBody(email: String, password: String) -> Components.Schemas.UserLoginRequest {
    Components.Schemas.UserLoginRequest(email: email, password: password)
}

/// A registration body: `UserRegister {email, password, display_name}`.
func registerBody(email: String, password: String, displayName: String? = nil) -> Components.Schemas.UserRegister {
    Components.Schemas.UserRegister(displayName: displayName, email: email, password: password)
}
