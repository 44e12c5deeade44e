/// The body of `POST /api/v1/auth/verify-email`: the code sent to the user's address
/// (seed 002's `verifyEmail(code:)`).
///
/// ```json
/// {"code": "7Q2K-19XD"}
/// ```
public struct VerifyEmailRequest: Codable, Sendable, Hashable {
    /// The verification code, as delivered to the user.
    public var code: String

    /// Creates a verification request.
    /// - Parameter code: The verification code, as delivered to the user.
    public init(code: String) {
        self.code = code
    }
}
