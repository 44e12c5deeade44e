/// The body of `POST /api/v1/auth/verify-email`: the token sent to the user's address.
public struct VerifyEmailRequest: Codable, Sendable, Hashable {
    /// The verification token, as delivered to the user.
    public var token: String

    /// Creates a verification request.
    /// - Parameter token: The verification token, as delivered to the user.
    public init(token: String) {
        self.token = token
    }
}
