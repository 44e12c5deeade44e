import Foundation

/// Every account the server knows, by id and by email, with the pending email verifications.
///
/// A plain value; ``AuthService`` provides isolation.
struct AccountDirectory: Sendable {
    /// The id of the demo account the server seeds, which owns the demo radars.
    static let demoAccountId = "demo-user"

    private var accounts: [String: UserAccount] = [:]
    private var idsByEmail: [String: String] = [:]
    /// Pending verification tokens, to the id of the account they verify.
    private var pendingVerifications: [String: String] = [:]
    /// Pending password resets: the six-digit code sent for an account and the wrong codes
    /// tried against it, by the account's id.
    private var pendingResets: [String: (code: String, failures: Int)] = [:]
    /// How many wrong codes end a pending reset: six digits guessed five times at most.
    static let resetAttempts = 5
    private var nextUserNumber = 1

    /// The form emails are stored and looked up in: trimmed and lowercased.
    static func normalizedEmail(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// The account with this id, if any.
    func account(id: String) -> UserAccount? {
        accounts[id]
    }

    /// The account with this email, compared after normalisation, if any.
    func account(email: String) -> UserAccount? {
        idsByEmail[Self.normalizedEmail(email)].flatMap { accounts[$0] }
    }

    /// Adds an account unless its email is taken.
    /// - Parameters:
    ///   - id: The id to give it; `nil` gives the next `u_<n>`.
    ///   - email: The email address; stored normalised.
    ///   - displayName: The name shown for the user.
    ///   - passwordHash: The salted hash of the password.
    ///   - emailVerified: Whether the address counts as confirmed already.
    ///   - createdAt: The creation time.
    /// - Returns: The new account, or `nil` if the email is taken.
    mutating func add(
        id: String? = nil,
        email: String,
        displayName: String?,
        passwordHash: PasswordHash,
        emailVerified: Bool,
        createdAt: Date
    ) -> UserAccount? {
        let email = Self.normalizedEmail(email)
        guard idsByEmail[email] == nil else { return nil }
        let account = UserAccount(
            id: id ?? nextGeneratedId(),
            email: email,
            displayName: displayName,
            passwordHash: passwordHash,
            emailVerified: emailVerified,
            createdAt: createdAt
        )
        accounts[account.id] = account
        idsByEmail[email] = account.id
        return account
    }

    /// Creates a verification token for an account and returns it.
    mutating func makeVerificationToken(forAccount id: String) -> String {
        let token = OpaqueToken.make()
        pendingVerifications[token] = id
        return token
    }

    /// The pending verification token of the account with this email, if any.
    func pendingVerificationToken(email: String) -> String? {
        guard let id = account(email: email)?.id else { return nil }
        return pendingVerifications.first { $0.value == id }?.key
    }

    /// Marks the account a verification token belongs to as verified, consuming the token.
    /// - Returns: The updated account, or `nil` if the token is unknown or already used.
    mutating func verifyEmail(token: String) -> UserAccount? {
        guard let id = pendingVerifications.removeValue(forKey: token), var account = accounts[id] else { return nil }
        account.emailVerified = true
        accounts[id] = account
        return account
    }

    /// Changes an account's display name and email address (a new address must be confirmed
    /// again, and may not be another account's).
    /// - Returns: The updated account; `nil` when the id is unknown.
    /// - Throws: ``APIError`` 409 `email_taken` when the new address is another account's.
    mutating func update(id: String, displayName: String?, email: String?) throws -> UserAccount? {
        guard var account = accounts[id] else { return nil }
        if let displayName { account.displayName = displayName }
        if let email, Self.normalizedEmail(email) != account.email {
            let normalized = Self.normalizedEmail(email)
            guard idsByEmail[normalized] == nil else { throw APIError.emailTaken() }
            idsByEmail[account.email] = nil
            idsByEmail[normalized] = id
            account.email = normalized
            account.emailVerified = false
            accounts[id] = account
            _ = makeVerificationToken(forAccount: id)
        }
        accounts[id] = account
        return account
    }

    /// Starts a password reset for the account with this email: a new six-digit code replaces
    /// any earlier one. `nil` when no account has the email.
    mutating func makeResetCode(email: String) -> String? {
        guard let id = account(email: email)?.id else { return nil }
        let code = String(format: "%06d", Int.random(in: 0...999_999))
        pendingResets[id] = (code, 0)
        return code
    }

    /// The pending reset code of the account with this email, if any.
    func pendingResetCode(email: String) -> String? {
        account(email: email).flatMap { pendingResets[$0.id]?.code }
    }

    /// Checks a reset code against the account's pending one: a match consumes it; a miss counts,
    /// and ``resetAttempts`` misses end the reset, so the code cannot be guessed.
    /// - Returns: The account's id when the code matches; `nil` otherwise.
    mutating func consumeResetCode(email: String, code: String) -> String? {
        guard let account = account(email: email), let pending = pendingResets[account.id] else { return nil }
        guard ConstantTimeComparison.equal(Array(pending.code.utf8), Array(code.utf8)) else {
            pendingResets[account.id] = pending.failures + 1 >= Self.resetAttempts ? nil : (pending.code, pending.failures + 1)
            return nil
        }
        pendingResets[account.id] = nil
        return account.id
    }

    /// Sets an account's password hash.
    mutating func setPasswordHash(_ hash: PasswordHash, ofAccount id: String) {
        accounts[id]?.passwordHash = hash
    }

    private mutating func nextGeneratedId() -> String {
        while accounts["u_\(nextUserNumber)"] != nil {
            nextUserNumber += 1
        }
        defer { nextUserNumber += 1 }
        return "u_\(nextUserNumber)"
    }
}
