/// The tokens a CLARITY client signs requests with, and the user they belong to.
///
/// Answered by register, login and refresh:
/// ```json
/// {"accessToken": "…", "refreshToken": "…", "tokenType": "Bearer", "expiresIn": 900,
///  "user": {"id": "u_1", "email": "ada@example.com", "emailVerified": false, "createdAt": "…"}}
/// ```
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
