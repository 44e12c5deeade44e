public import ClarityCore
public import Courier

/// The CLARITY authentication endpoints (`/api/v1/auth`) as typed requests.
public enum ClarityAuthEndpoints {
    /// `POST /api/v1/auth/register`: creates an account and signs it in.
    /// - Parameter registration: Email, password and display name.
    public static func register(_ registration: RegisterRequest) -> Request<TokenResponse> {
        Request(method: .post, path: "/api/v1/auth/register", body: .json(registration), options: unsigned, name: "clarity.auth.register")
    }

    /// `POST /api/v1/auth/login`: signs in with email and password.
    /// - Parameters:
    ///   - email: The account's email.
    ///   - password: Its password.
    public static func login(email: String, password: String) -> Request<TokenResponse> {
        Request(
            method: .post, path: "/api/v1/auth/login", body: .json(LoginRequest(email: email, password: password)),
            options: unsigned, name: "clarity.auth.login"
        )
    }

    /// `POST /api/v1/auth/refresh`: trades a refresh token for a new token pair. The old
    /// refresh token stops working.
    /// - Parameter refreshToken: The refresh token.
    public static func refresh(refreshToken: String) -> Request<TokenResponse> {
        Request(
            method: .post, path: "/api/v1/auth/refresh", body: .json(RefreshTokenRequest(refreshToken: refreshToken)),
            options: unsigned, name: "clarity.auth.refresh"
        )
    }

    /// `POST /api/v1/auth/logout`: revokes the refresh token and the access token that signs the call.
    /// - Parameter refreshToken: The refresh token to revoke.
    public static func logout(refreshToken: String) -> Request<Void> {
        Request(method: .post, path: "/api/v1/auth/logout", body: .json(LogoutRequest(refreshToken: refreshToken)), name: "clarity.auth.logout")
    }

    /// `GET /api/v1/auth/me`: the signed-in user.
    public static func currentUser() -> Request<ClarityUser> {
        Request(path: "/api/v1/auth/me", name: "clarity.auth.me")
    }

    /// `POST /api/v1/auth/verify-email`: confirms an email address with the token sent to it.
    /// - Parameter token: The verification token.
    public static func verifyEmail(token: String) -> Request<VerifyEmailResponse> {
        Request(method: .post, path: "/api/v1/auth/verify-email", body: .json(VerifyEmailRequest(token: token)), options: unsigned, name: "clarity.auth.verify-email")
    }

    private static var unsigned: RequestOptions { RequestOptions(requiresAuth: false, retryPolicy: RetryPolicy.none) }
}
