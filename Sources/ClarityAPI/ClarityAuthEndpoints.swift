public import ClarityCore
public import Courier

/// The CLARITY authentication endpoints (`/api/v1/auth`) as typed requests.
///
/// Like every CLARITY endpoint, the paths are relative to ``root`` (`/api/v1`), the way seed
/// 002 writes them against its base URL `https://…/api/v1`. Send them with a client whose base
/// URL ends in the root; ``ClarityClient`` makes one from a server address in either form.
public enum ClarityAuthEndpoints {
    /// The path prefix the CLARITY API lives under, `/api/v1`: every CLARITY path is relative to it.
    ///
    /// ```swift
    /// let base = ClarityAuthEndpoints.root.baseURL(for: URL(string: "https://clarity.example")!)
    /// // https://clarity.example/api/v1
    /// ```
    public static let root = APIRoot("/api/v1")

    /// `POST /api/v1/auth/register`: creates an account and signs it in.
    /// - Parameter registration: Email, password and display name.
    public static func register(_ registration: RegisterRequest) -> Request<TokenResponse> {
        Request(method: .post, path: "/auth/register", body: .json(registration), options: unsigned, name: "clarity.auth.register")
    }

    /// `POST /api/v1/auth/login`: signs in with email and password.
    /// - Parameters:
    ///   - email: The account's email.
    ///   - password: Its password.
    public static func login(email: String, password: String) -> Request<TokenResponse> {
        Request(
            method: .post, path: "/auth/login", body: .json(LoginRequest(email: email, password: password)),
            options: unsigned, name: "clarity.auth.login"
        )
    }

    /// `POST /api/v1/auth/refresh`: trades a refresh token for a new token pair. The old
    /// refresh token stops working.
    /// - Parameter refreshToken: The refresh token.
    public static func refresh(refreshToken: String) -> Request<TokenResponse> {
        Request(
            method: .post, path: "/auth/refresh", body: .json(RefreshTokenRequest(refreshToken: refreshToken)),
            options: unsigned, name: "clarity.auth.refresh"
        )
    }

    /// `POST /api/v1/auth/logout`: revokes the refresh token and the access token that signs
    /// the call. Answers a `MessageResponse`.
    /// - Parameter refreshToken: The refresh token to revoke.
    public static func logout(refreshToken: String) -> Request<MessageResponse> {
        Request(method: .post, path: "/auth/logout", body: .json(LogoutRequest(refreshToken: refreshToken)), name: "clarity.auth.logout")
    }

    /// `GET /api/v1/auth/me`: the signed-in user.
    public static func currentUser() -> Request<ClarityUser> {
        Request(path: "/auth/me", name: "clarity.auth.me")
    }

    /// `POST /api/v1/auth/verify-email`: confirms an email address with the code sent to it.
    /// Answers a `MessageResponse`; an unknown or used code is a 400.
    /// - Parameter code: The verification code.
    public static func verifyEmail(code: String) -> Request<MessageResponse> {
        Request(method: .post, path: "/auth/verify-email", body: .json(VerifyEmailRequest(code: code)), options: unsigned, name: "clarity.auth.verify-email")
    }

    private static var unsigned: RequestOptions { RequestOptions(requiresAuth: false, retryPolicy: RetryPolicy.none) }
}
