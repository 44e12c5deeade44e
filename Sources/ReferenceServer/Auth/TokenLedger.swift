import Foundation

/// Every access and refresh token the server has issued, and the rules for using them.
///
/// A plain value with no clock: each operation takes the current time, and ``AuthService``
/// provides isolation. Refresh tokens rotate: a successful refresh retires the token it
/// used, and presenting a retired token again is taken as theft, so every refresh token
/// of that user is revoked, and so is every access token of the token's family (the
/// sign-in it descends from, through every rotation since): a stolen access token stops
/// working at once rather than when it expires.
struct TokenLedger: Sendable {
    /// How long a refresh token stays valid: 30 days.
    static let refreshTokenLifetime: TimeInterval = 30 * 24 * 60 * 60
    /// How long an expired access token is still recognised as expired (rather than unknown).
    static let expiredAccessTokenMemory: TimeInterval = 60 * 60
    /// How many issuances pass between two sweeps of dead tokens.
    static let issuancesPerSweep = 256

    /// What an access token is worth at a given time.
    enum AccessCheck: Sendable, Equatable {
        /// The token is valid and belongs to this user.
        case valid(userId: String)
        /// The token was issued but its lifetime is over.
        case expired
        /// The token was never issued, or was revoked.
        case unknown
    }

    /// What happened to a refresh token presented for rotation.
    enum RotationOutcome: Sendable, Equatable {
        /// The token was valid; it is retired and this pair replaces it.
        case rotated(userId: String, pair: IssuedTokens)
        /// The token had already been rotated: every refresh token of the user, and every access
        /// token of the token's family, is now revoked.
        case reused(userId: String)
        /// The token is unknown, expired or revoked.
        case invalid
    }

    /// A freshly issued access and refresh token.
    struct IssuedTokens: Sendable, Equatable {
        /// The new access token.
        let accessToken: String
        /// The new refresh token.
        let refreshToken: String
        /// When the access token expires.
        let accessTokenExpiresAt: Date
    }

    /// Whom a token belongs to, the sign-in it descends from, and until when it is valid.
    private struct Grant: Sendable {
        let userId: String
        /// The family: one per sign-in, shared by every pair rotated from it.
        let family: UInt64
        var expiresAt: Date
    }

    private var accessGrants: [String: Grant] = [:]
    private var refreshGrants: [String: Grant] = [:]
    /// Refresh tokens already exchanged, kept until they would have expired to detect reuse.
    private var retiredRefreshTokens: [String: Grant] = [:]
    private var issuancesSinceSweep = 0
    private var lastFamily: UInt64 = 0

    /// Issues a new access and refresh token for a user, starting a new family (a sign-in).
    /// - Parameters:
    ///   - userId: The user the tokens belong to.
    ///   - now: The current time.
    ///   - accessTokenLifetime: How long the access token is valid, in seconds.
    mutating func issue(userId: String, now: Date, accessTokenLifetime: TimeInterval) -> IssuedTokens {
        lastFamily &+= 1
        return issue(userId: userId, family: lastFamily, now: now, accessTokenLifetime: accessTokenLifetime)
    }

    /// Issues a pair in an existing family.
    private mutating func issue(userId: String, family: UInt64, now: Date, accessTokenLifetime: TimeInterval) -> IssuedTokens {
        sweepIfDue(now: now)
        let pair = IssuedTokens(
            accessToken: OpaqueToken.make(),
            refreshToken: OpaqueToken.make(),
            accessTokenExpiresAt: now.addingTimeInterval(accessTokenLifetime)
        )
        accessGrants[pair.accessToken] = Grant(userId: userId, family: family, expiresAt: pair.accessTokenExpiresAt)
        refreshGrants[pair.refreshToken] = Grant(
            userId: userId, family: family, expiresAt: now.addingTimeInterval(Self.refreshTokenLifetime)
        )
        return pair
    }

    /// Checks an access token.
    func checkAccess(_ token: String, now: Date) -> AccessCheck {
        guard let grant = accessGrants[token] else { return .unknown }
        return now < grant.expiresAt ? .valid(userId: grant.userId) : .expired
    }

    /// Exchanges a refresh token for a new pair, retiring it.
    /// - Parameters:
    ///   - refreshToken: The token presented.
    ///   - now: The current time.
    ///   - accessTokenLifetime: The new access token's lifetime, in seconds.
    mutating func rotate(refreshToken: String, now: Date, accessTokenLifetime: TimeInterval) -> RotationOutcome {
        if let retired = retiredRefreshTokens[refreshToken] {
            revokeRefreshTokens(ofUser: retired.userId)
            revokeAccessTokens(ofFamily: retired.family)
            return .reused(userId: retired.userId)
        }
        guard let grant = refreshGrants.removeValue(forKey: refreshToken) else { return .invalid }
        guard now < grant.expiresAt else { return .invalid }
        retiredRefreshTokens[refreshToken] = grant
        let pair = issue(userId: grant.userId, family: grant.family, now: now, accessTokenLifetime: accessTokenLifetime)
        return .rotated(userId: grant.userId, pair: pair)
    }

    /// Revokes the sign-in an access token belongs to: every access and refresh token of its
    /// family (the pairs rotated from one sign-in), and no other.
    mutating func revokeSignIn(ofAccessToken token: String) {
        guard let family = accessGrants[token]?.family else { return }
        revokeAccessTokens(ofFamily: family)
        refreshGrants = refreshGrants.filter { $0.value.family != family }
    }

    /// Revokes a refresh token if it belongs to `userId`; does nothing otherwise.
    mutating func revokeRefreshToken(_ token: String, ownedBy userId: String) {
        guard refreshGrants[token]?.userId == userId else { return }
        refreshGrants[token] = nil
    }

    /// Revokes every refresh token of a user: the whole family of a token found to be reused.
    mutating func revokeRefreshTokens(ofUser userId: String) {
        refreshGrants = refreshGrants.filter { $0.value.userId != userId }
    }

    /// Ends every sign-in of a user: all their access and refresh tokens (a password reset).
    mutating func revokeAll(ofUser userId: String) {
        accessGrants = accessGrants.filter { $0.value.userId != userId }
        refreshGrants = refreshGrants.filter { $0.value.userId != userId }
    }

    /// Revokes every access token of a family: the sign-in a reused refresh token descends from.
    mutating func revokeAccessTokens(ofFamily family: UInt64) {
        accessGrants = accessGrants.filter { $0.value.family != family }
    }

    /// Makes every access token that is still valid expire now; refresh tokens are untouched.
    mutating func expireAccessTokens(now: Date) {
        for (token, grant) in accessGrants where grant.expiresAt > now {
            accessGrants[token]?.expiresAt = now
        }
    }

    /// Revokes every refresh token of every user, and forgets the retired ones.
    mutating func revokeAllRefreshTokens() {
        refreshGrants.removeAll()
        retiredRefreshTokens.removeAll()
    }

    /// Forgets tokens that can no longer matter, every ``issuancesPerSweep`` issuances.
    private mutating func sweepIfDue(now: Date) {
        issuancesSinceSweep += 1
        guard issuancesSinceSweep >= Self.issuancesPerSweep else { return }
        issuancesSinceSweep = 0
        let forgetBefore = now.addingTimeInterval(-Self.expiredAccessTokenMemory)
        accessGrants = accessGrants.filter { $0.value.expiresAt > forgetBefore }
        refreshGrants = refreshGrants.filter { $0.value.expiresAt > now }
        retiredRefreshTokens = retiredRefreshTokens.filter { $0.value.expiresAt > now }
    }
}
