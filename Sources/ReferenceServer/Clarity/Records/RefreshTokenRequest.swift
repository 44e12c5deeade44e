/// The refresh token to exchange for a new token pair, as the reference server's refresh takes
/// it (from `Authorization: Bearer` or a `{"refresh_token": …}` body).
///
/// Refresh tokens rotate: the token sent here stops working once the exchange succeeds,
/// and presenting it again revokes every refresh token of its user.
struct RefreshTokenRequest: Codable, Sendable, Hashable {
    /// The refresh token from the latest ``TokenResponse``.
    var refreshToken: String

    /// Creates a refresh request.
    /// - Parameter refreshToken: The refresh token from the latest ``TokenResponse``.
    init(refreshToken: String) {
        self.refreshToken = refreshToken
    }
}
