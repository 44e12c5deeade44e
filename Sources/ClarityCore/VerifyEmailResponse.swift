/// The answer to `POST /api/v1/auth/verify-email`.
public struct VerifyEmailResponse: Codable, Sendable, Hashable {
    /// Whether the address is now verified.
    public var verified: Bool

    /// Creates a verification result.
    /// - Parameter verified: Whether the address is now verified.
    public init(verified: Bool) {
        self.verified = verified
    }
}
