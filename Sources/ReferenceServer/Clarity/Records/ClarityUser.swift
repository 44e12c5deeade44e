public import Foundation

/// A CLARITY account as the reference server keeps it; `GET /api/v1/auth/me` shows it as the
/// document's `UserInfoResponse`.
public struct ClarityUser: Codable, Sendable, Hashable, Identifiable {
    /// The user's unique identifier.
    public var id: String
    /// The user's email address.
    public var email: String
    /// The name shown for the user, if they gave one.
    public var displayName: String?
    /// Whether the user has confirmed their email address.
    public var emailVerified: Bool
    /// When the account was created.
    public var createdAt: Date

    /// Creates a user.
    /// - Parameters:
    ///   - id: The user's unique identifier.
    ///   - email: The user's email address.
    ///   - displayName: The name shown for the user; `nil` for none.
    ///   - emailVerified: Whether the address has been confirmed.
    ///   - createdAt: When the account was created.
    public init(id: String, email: String, displayName: String? = nil, emailVerified: Bool, createdAt: Date) {
        self.id = id
        self.email = email
        self.displayName = displayName
        self.emailVerified = emailVerified
        self.createdAt = createdAt
    }
}
