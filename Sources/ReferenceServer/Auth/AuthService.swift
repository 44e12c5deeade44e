import Foundation

/// Accounts, passwords and tokens: everything behind `/api/v1/auth` and the access check of `/api`.
///
/// Passwords are hashed and checked outside the actor's isolation, so a slow key derivation
/// never holds up token checks of other requests. Sign-ins are throttled per email by a
/// ``LoginThrottle``.
actor AuthService {
    /// The shortest password accepted, in characters.
    static let minimumPasswordLength = 8
    /// The longest password accepted, in characters.
    static let maximumPasswordLength = 128

    private var directory = AccountDirectory()
    private var ledger = TokenLedger()
    private var apiKeys = APIKeyRing()
    private var throttle: LoginThrottle
    private var accessTokenLifetime: Duration
    /// The password hasher; read without isolation, as it is an immutable value.
    nonisolated let hasher: PasswordHasher
    private let clock: @Sendable () -> Date

    /// Creates the service with the demo account in it.
    /// - Parameters:
    ///   - demoEmail: The demo account's email.
    ///   - demoPassword: The demo account's password.
    ///   - demoAPIKey: The demo account's personal API key for the intervals routes.
    ///   - accessTokenLifetime: How long new access tokens are valid.
    ///   - hasher: The password hasher.
    ///   - throttle: The rule for failed sign-ins; by default 5 in a row within 15 minutes
    ///     lock an email for 15 minutes.
    ///   - clock: The source of the current time. Token expiry and sign-in throttling use it
    ///     as it is; account creation dates are cut to whole seconds.
    init(
        demoEmail: String,
        demoPassword: String,
        demoAPIKey: String? = nil,
        accessTokenLifetime: Duration,
        hasher: PasswordHasher = PasswordHasher(),
        throttle: LoginThrottle = LoginThrottle(failureLimit: 5, window: 15 * 60),
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.accessTokenLifetime = accessTokenLifetime
        self.hasher = hasher
        self.throttle = throttle
        self.clock = clock
        if let demoAPIKey { apiKeys.add(demoAPIKey, for: AccountDirectory.demoAccountId) }
        // PBKDF2 fails only for invalid parameters, which these are not; a failure would
        // leave the demo account out, and its login would answer 401.
        if let hash = try? hasher.hash(demoPassword) {
            _ = directory.add(
                id: AccountDirectory.demoAccountId,
                email: demoEmail,
                displayName: "Demo User",
                passwordHash: hash,
                emailVerified: true,
                createdAt: Self.wholeSeconds(clock())
            )
        }
    }

    // MARK: - Endpoints

    /// Creates an account, with a pending email verification, and signs it in.
    /// - Throws: ``APIError`` 422 `validation_failed` for a bad email or password, 409 `email_taken`.
    nonisolated func register(_ request: RegisterRequest) async throws -> TokenResponse {
        try Self.validateEmail(request.email)
        try Self.validatePassword(request.password)
        let hash = try hasher.hash(request.password)
        return try await addAccount(email: request.email, displayName: request.displayName, passwordHash: hash)
    }

    /// Signs in with an email and a password.
    ///
    /// Too many failures in a row for one email lock it for a while (see ``LoginThrottle``):
    /// attempts are then refused before the password is checked, the right one included.
    /// Unknown emails are counted the same way, so the answers do not tell which accounts exist.
    /// - Throws: ``APIError`` 401 `invalid_credentials`, the same for an unknown email and a
    ///   wrong password; 429 `too_many_attempts` with `Retry-After` while the email is locked.
    nonisolated func login(_ request: LoginRequest) async throws -> TokenResponse {
        let key = AccountDirectory.normalizedEmail(request.email)
        if case .throttled(let retryAfterSeconds) = await beginLoginAttempt(key: key) {
            throw APIError.tooManyLoginAttempts(retryAfterSeconds: retryAfterSeconds)
        }
        // No suspension point from here to the outcome's report but actor hops, which
        // cancellation does not interrupt: every allowed attempt is finished.
        guard let account = await account(email: request.email) else {
            hasher.verifyAgainstNothing(request.password)
            await finishLoginAttempt(key: key, succeeded: false)
            throw APIError.invalidCredentials()
        }
        guard hasher.verify(request.password, against: account.passwordHash) else {
            await finishLoginAttempt(key: key, succeeded: false)
            throw APIError.invalidCredentials()
        }
        await finishLoginAttempt(key: key, succeeded: true)
        guard let response = await issueTokens(accountId: account.id) else { throw APIError.invalidCredentials() }
        return response
    }

    /// Exchanges a refresh token for a new pair.
    /// - Throws: ``APIError`` 401 `invalid_refresh_token` when the token is unknown, expired or
    ///   revoked; reuse of a rotated token also revokes every refresh token of its user and
    ///   every access token issued in its family (see ``TokenLedger``).
    func refresh(_ request: RefreshTokenRequest) throws -> TokenResponse {
        let outcome = ledger.rotate(refreshToken: request.refreshToken, now: clock(), accessTokenLifetime: lifetimeSeconds)
        guard case .rotated(let userId, let pair) = outcome, let account = directory.account(id: userId) else {
            throw APIError.invalidRefreshToken()
        }
        return tokenResponse(pair, for: account)
    }

    /// Ends the sign-in whose access token signed the request (its access and refresh tokens),
    /// and revokes the given refresh token too when it is the same user's.
    func logout(accessToken: String, userId: String, refreshToken: String?) {
        ledger.revokeSignIn(ofAccessToken: accessToken)
        if let refreshToken { ledger.revokeRefreshToken(refreshToken, ownedBy: userId) }
    }

    /// The account of a user, as the API shows it.
    func user(id: String) -> ClarityUser? {
        directory.account(id: id)?.clarityUser
    }

    /// Marks an email address verified with the code sent to it.
    /// - Throws: ``APIError`` 400 `invalid_token` when the code is not the one waiting for the
    ///   address, or was used already.
    func confirmEmail(email: String, code: String) throws {
        guard let pending = directory.pendingVerificationToken(email: email), ConstantTimeComparison.equal(Array(pending.utf8), Array(code.utf8)),
              directory.verifyEmail(token: pending) != nil else {
            throw APIError.invalidVerificationToken()
        }
    }

    /// Changes the signed-in user's display name or email (``AccountDirectory/update(id:displayName:email:)``).
    /// - Throws: ``APIError`` 422 for a malformed email, 409 `email_taken`, 401 for an unknown user.
    func updateUser(id: String, displayName: String?, email: String?) throws -> ClarityUser {
        if let email { try Self.validateEmail(email) }
        guard let account = try directory.update(id: id, displayName: displayName, email: email) else {
            throw APIError.unauthorized("Authentication required")
        }
        return account.clarityUser
    }

    /// Sends a new confirmation code to an unconfirmed address; nothing for an unknown or
    /// confirmed one (the answer is the same, so it tells no one which accounts exist).
    func resendConfirmation(email: String) {
        guard let account = directory.account(email: email), !account.emailVerified else { return }
        if directory.pendingVerificationToken(email: email) == nil { _ = directory.makeVerificationToken(forAccount: account.id) }
    }

    /// Starts a password reset: a code for the account with this email, if there is one.
    func forgotPassword(email: String) {
        _ = directory.makeResetCode(email: email)
    }

    /// Sets a new password with the reset code sent for the email, and ends every sign-in of
    /// the account (its access and refresh tokens are revoked). The code is checked before the
    /// password is hashed, so a wrong one costs the server nothing; five wrong codes end the reset.
    /// - Throws: ``APIError`` 422 for a password of the wrong length, 400 `invalid_code` when
    ///   the code is not the pending one.
    nonisolated func resetPassword(email: String, code: String, newPassword: String) async throws {
        try Self.validatePassword(newPassword)
        guard let userId = await consumeResetCode(email: email, code: code) else {
            throw APIError(status: .badRequest, code: "invalid_code", message: "the reset code is not valid")
        }
        let hash = try hasher.hash(newPassword)
        await finishReset(userId: userId, hash: hash)
    }

    /// The pending password reset code of an account, if any (the reference server's stand-in
    /// for the email that carries it).
    func passwordResetCode(email: String) -> String? {
        directory.pendingResetCode(email: email)
    }

    private func consumeResetCode(email: String, code: String) -> String? {
        directory.consumeResetCode(email: email, code: code)
    }

    private func finishReset(userId: String, hash: PasswordHash) {
        directory.setPasswordHash(hash, ofAccount: userId)
        ledger.revokeAll(ofUser: userId)
    }

    /// Checks the access token of a request.
    func checkAccess(_ token: String) -> TokenLedger.AccessCheck {
        ledger.checkAccess(token, now: clock())
    }

    /// The user a personal API key belongs to, if any.
    func user(forAPIKey key: String) -> String? {
        apiKeys.owner(of: key)
    }

    // MARK: - Test controls

    /// Issues tokens for the account with this email, as a login would; `nil` if there is no such account.
    func issueTokens(email: String) -> TokenResponse? {
        directory.account(email: email).flatMap { issueTokens(accountId: $0.id) }
    }

    /// Issues a new personal API key for the account with this email; `nil` if there is none.
    func issueAPIKey(email: String) -> String? {
        directory.account(email: email).map { apiKeys.issue(for: $0.id) }
    }

    /// Sets the lifetime of access tokens issued from now on.
    func setAccessTokenLifetime(_ lifetime: Duration) {
        accessTokenLifetime = lifetime
    }

    /// Makes every valid access token expire now.
    func expireAccessTokens() {
        ledger.expireAccessTokens(now: clock())
    }

    /// Revokes every refresh token.
    func revokeRefreshTokens() {
        ledger.revokeAllRefreshTokens()
    }

    /// The pending verification token of an account, if any.
    func verificationToken(email: String) -> String? {
        directory.pendingVerificationToken(email: email)
    }

    // MARK: - Helpers

    private var lifetimeSeconds: TimeInterval { accessTokenLifetime.timeInterval }

    private func account(email: String) -> UserAccount? {
        directory.account(email: email)
    }

    private func beginLoginAttempt(key: String) -> LoginThrottle.Decision {
        throttle.begin(key: key, now: clock())
    }

    private func finishLoginAttempt(key: String, succeeded: Bool) {
        throttle.finish(key: key, succeeded: succeeded, now: clock())
    }

    /// A date without fractional seconds, so that what a client decodes equals what the server stored.
    private static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    private func addAccount(email: String, displayName: String?, passwordHash: PasswordHash) throws -> TokenResponse {
        guard let account = directory.add(
            email: email,
            displayName: displayName,
            passwordHash: passwordHash,
            emailVerified: false,
            createdAt: Self.wholeSeconds(clock())
        ) else {
            throw APIError.emailTaken()
        }
        _ = directory.makeVerificationToken(forAccount: account.id)
        return tokenResponse(ledger.issue(userId: account.id, now: clock(), accessTokenLifetime: lifetimeSeconds), for: account)
    }

    private func issueTokens(accountId: String) -> TokenResponse? {
        guard let account = directory.account(id: accountId) else { return nil }
        return tokenResponse(ledger.issue(userId: account.id, now: clock(), accessTokenLifetime: lifetimeSeconds), for: account)
    }

    /// `expiresIn` is the lifetime rounded up to whole seconds, so a sub-second lifetime reads as 1.
    private func tokenResponse(_ pair: TokenLedger.IssuedTokens, for account: UserAccount) -> TokenResponse {
        TokenResponse(
            accessToken: pair.accessToken,
            refreshToken: pair.refreshToken,
            tokenType: "Bearer",
            expiresIn: Int(lifetimeSeconds.rounded(.up)),
            user: account.clarityUser
        )
    }

    static func validateEmail(_ email: String) throws {
        let parts = AccountDirectory.normalizedEmail(email).split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty }) else {
            throw APIError.validationFailed("email must be an address like name@example.com")
        }
    }

    static func validatePassword(_ password: String) throws {
        guard (minimumPasswordLength...maximumPasswordLength).contains(password.count) else {
            throw APIError.validationFailed(
                "password must be \(minimumPasswordLength) to \(maximumPasswordLength) characters, got \(password.count)"
            )
        }
    }
}
