import Hummingbird

extension APIError {
    /// The `WWW-Authenticate` value of a 401 whose access token has expired (RFC 6750).
    static let expiredTokenChallenge = #"Bearer error="invalid_token""#

    /// 401 `token_expired`: the access token was valid once but its lifetime is over.
    static func tokenExpired() -> APIError {
        APIError(
            status: .unauthorized,
            code: "token_expired",
            message: "the access token expired",
            headers: [.wwwAuthenticate: expiredTokenChallenge]
        )
    }

    /// 401 `invalid_credentials`: the email is unknown or the password is wrong; the message does not say which.
    static func invalidCredentials() -> APIError {
        APIError(
            status: .unauthorized,
            code: "invalid_credentials",
            message: "invalid email or password",
            headers: [.wwwAuthenticate: "Bearer"]
        )
    }

    /// 401 `invalid_refresh_token`: the refresh token is unknown, expired, revoked or already used.
    static func invalidRefreshToken() -> APIError {
        APIError(
            status: .unauthorized,
            code: "invalid_refresh_token",
            message: "invalid refresh token",
            headers: [.wwwAuthenticate: "Bearer"]
        )
    }

    /// 429 `too_many_attempts`: too many failed sign-ins for this email; `Retry-After` says
    /// in how many seconds to try again. The message does not say whether the account exists.
    /// - Parameter retryAfterSeconds: Seconds until sign-ins for this email are checked again.
    static func tooManyLoginAttempts(retryAfterSeconds: Int) -> APIError {
        APIError(
            status: .tooManyRequests,
            code: "too_many_attempts",
            message: "too many failed sign-ins for this email; try again in \(retryAfterSeconds) seconds",
            headers: [.retryAfter: String(retryAfterSeconds)]
        )
    }

    /// 409 `email_taken`: an account with this email exists already.
    static func emailTaken() -> APIError {
        APIError(status: .conflict, code: "email_taken", message: "an account with this email already exists")
    }

    /// 400 `invalid_token`: the email verification code is unknown or already used.
    static func invalidVerificationToken() -> APIError {
        APIError(status: .badRequest, code: "invalid_token", message: "unknown or already used verification code")
    }
}
