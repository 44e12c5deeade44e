/// The body of `POST /api/v1/auth/logout`: the refresh token to revoke along with the
/// access token the request is signed with.
public struct LogoutRequest: Codable, Sendable, Hashable {
    /// The refresh token to revoke.
    public var refreshToken: String

    /// Creates a logout request.
    /// - Parameter refreshToken: The refresh token to revoke.
    public init(refreshToken: String) {
        self.refreshToken = refreshToken
    }
}
