public import Foundation

/// What proves who the user is: an access token, and what it takes to get a new one.
public struct Credential: Sendable, Hashable, Codable {
    /// The token sent with requests.
    public var accessToken: String
    /// The token that obtains a new access token, if the API issues one.
    public var refreshToken: String?
    /// When the access token stops working, if known.
    public var expiresAt: Date?
    /// The account the credential belongs to: it keys per-user data such as cache partitions.
    public var accountID: String?
    /// When the access token was issued, if known: with ``expiresAt``, it bounds the refresh
    /// margin to half the token's lifetime, so short-lived tokens are not refreshed on every use.
    public var issuedAt: Date?

    /// Makes a credential.
    /// - Parameters:
    ///   - accessToken: The token sent with requests.
    ///   - refreshToken: The token that obtains a new access token.
    ///   - expiresAt: When the access token expires.
    ///   - accountID: The account it belongs to.
    ///   - issuedAt: When the access token was issued.
    public init(accessToken: String, refreshToken: String? = nil, expiresAt: Date? = nil, accountID: String? = nil, issuedAt: Date? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.accountID = accountID
        self.issuedAt = issuedAt
    }

    /// Whether the access token expires within `margin` of `date`. When ``issuedAt`` is
    /// known, the margin is at most half the token's lifetime.
    /// - Parameters:
    ///   - date: The current date.
    ///   - margin: How early to count it as expired.
    public func needsRefresh(at date: Date, margin: Duration) -> Bool {
        guard let expiresAt else { return false }
        var seconds = margin.timeInterval
        if let issuedAt { seconds = min(seconds, expiresAt.timeIntervalSince(issuedAt) / 2) }
        return expiresAt.timeIntervalSince(date) <= seconds
    }
}

extension Credential: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The credential without its tokens: the account, the expiry, and whether a refresh token is held.
    public var description: String {
        var parts = ["accessToken: \(Redaction.placeholder)"]
        if refreshToken != nil { parts.append("refreshToken: \(Redaction.placeholder)") }
        if let accountID { parts.append("accountID: \(accountID)") }
        if let expiresAt { parts.append("expiresAt: \(expiresAt)") }
        return "Credential(" + parts.joined(separator: ", ") + ")"
    }

    /// The same as ``description``: the tokens are never shown.
    public var debugDescription: String { description }

    /// What `dump(_:)` and debuggers show: the fields with the tokens replaced.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "accessToken": Redaction.placeholder,
            "refreshToken": refreshToken.map { _ in Redaction.placeholder } as Any,
            "expiresAt": expiresAt as Any,
            "accountID": accountID as Any,
            "issuedAt": issuedAt as Any,
        ], displayStyle: .struct)
    }
}
