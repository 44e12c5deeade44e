public import Courier
public import Foundation

/// What intervals.icu's token endpoint answers: an OAuth 2 token response with the athlete it
/// belongs to.
///
/// ```json
/// {"access_token": "…", "token_type": "Bearer", "expires_in": 3600, "refresh_token": "…",
///  "scope": "ACTIVITY:READ,WELLNESS:WRITE", "athlete": {"id": "i12345", "name": "Ada"}}
/// ```
///
/// Only `access_token` is required; fields the service adds are ignored.
public struct IntervalsOAuthToken: Decodable, Sendable, Hashable {
    /// The athlete a token belongs to.
    public struct Athlete: Decodable, Sendable, Hashable {
        /// The athlete's id, such as `i12345`.
        public var id: String
        /// The athlete's name, when given.
        public var name: String?
    }

    /// The access token: `access_token`.
    public var accessToken: String
    /// The token's type, `Bearer`: `token_type`.
    public var tokenType: String?
    /// Seconds until the access token expires, when it does: `expires_in`.
    public var expiresIn: Int?
    /// The new refresh token; the one just used stops working: `refresh_token`.
    public var refreshToken: String?
    /// The scopes granted: `scope`.
    public var scope: String?
    /// The athlete: `athlete`.
    public var athlete: Athlete?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case scope, athlete
    }

    /// The token as a Courier `Credential`.
    ///
    /// An answer without a refresh token keeps the previous one; without an athlete, the
    /// previous credential's account is kept, so the cache partition does not move.
    /// - Parameters:
    ///   - issuedAt: When the answer arrived; the expiry counts from it.
    ///   - previous: The credential it replaces, if any.
    public func credential(issuedAt: Date, previous: Credential? = nil) -> Credential {
        Credential(
            accessToken: accessToken,
            refreshToken: refreshToken ?? previous?.refreshToken,
            expiresAt: expiresIn.map { issuedAt.addingTimeInterval(TimeInterval($0)) },
            accountID: athlete?.id ?? previous?.accountID,
            issuedAt: issuedAt
        )
    }
}
