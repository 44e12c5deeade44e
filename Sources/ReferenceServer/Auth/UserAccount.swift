import Foundation

/// A user as the server stores them, password hash included.
struct UserAccount: Sendable {
    /// The user's unique identifier.
    let id: String
    /// The email address, trimmed and lowercased.
    var email: String
    /// The name shown for the user, if they gave one.
    var displayName: String?
    /// The salted hash of the password.
    var passwordHash: PasswordHash
    /// Whether the email address has been confirmed.
    var emailVerified: Bool
    /// When the account was created.
    let createdAt: Date

    /// The account as the API shows it to its owner.
    var clarityUser: ClarityUser {
        ClarityUser(id: id, email: email, displayName: displayName, emailVerified: emailVerified, createdAt: createdAt)
    }
}
