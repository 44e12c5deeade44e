/// A token pair the reference server issued, with the user it belongs to: what its sign-in,
/// registration and refresh produce, and what ``ReferenceServer/issueTokens(email:)`` hands a
/// test or the demo directly. The wire answer is the document's `TokenResponse`, without the user.
public struct TokenResponse: Codable, Sendable, Hashable {
    /// The token to send as `Authorization: Bearer <accessToken>`.
    public var accessToken: String
    /// The single-use token that obtains the next pair from `POST /api/v1/auth/refresh`.
    public var refreshToken: String
    /// The authorization scheme the access token is used with: `"Bearer"`.
    public var tokenType: String
    /// The access token's lifetime in seconds, counted from when the response was sent.
    public var expiresIn: Int
    /// The user the tokens belong to.
    public var user: ClarityUser

    /// Creates a token response.
    /// - Parameters:
    ///   - accessToken: The token that signs requests.
    ///   - refreshToken: The single-use token that obtains the next pair.
    ///   - tokenType: The authorization scheme; `"Bearer"` unless stated otherwise.
    ///   - expiresIn: The access token's lifetime in seconds.
    ///   - user: The user the tokens belong to.
    public init(
        accessToken: String,
        refreshToken: String,
        tokenType: String = "Bearer",
        expiresIn: Int,
        user: ClarityUser
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.user = user
    }
}
