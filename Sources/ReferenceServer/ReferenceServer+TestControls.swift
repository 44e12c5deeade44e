extension ReferenceServer {
    /// Thrown by ``ReferenceServer/issueTokens(email:)`` when no account has the email.
    public struct UnknownAccountError: Error, CustomStringConvertible {
        /// The email that matched no account.
        public let email: String

        /// A description of the failure.
        public var description: String { "no account with email \(email)" }
    }

    /// Issues an access and refresh token for an account, as if its user had logged in.
    ///
    /// ```swift
    /// let tokens = try await server.issueTokens(email: ReferenceServerConfiguration().demoEmail)
    /// ```
    /// - Parameter email: The account's email, compared case-insensitively; the demo account's
    ///   is ``ReferenceServerConfiguration/demoEmail``.
    /// - Returns: The tokens and the user, as `POST /api/v1/auth/login` would answer.
    /// - Throws: ``UnknownAccountError`` when no account has this email.
    public func issueTokens(email: String) async throws -> TokenResponse {
        guard let tokens = await auth.issueTokens(email: email) else { throw UnknownAccountError(email: email) }
        return tokens
    }

    /// Issues a new personal API key for an account, as intervals.icu's settings page would:
    /// the intervals routes take it as HTTP Basic with the user name `API_KEY`.
    /// - Parameter email: The account's email; the demo account's key is also
    ///   ``ReferenceServerConfiguration/demoAPIKey``.
    /// - Returns: The key.
    /// - Throws: ``UnknownAccountError`` when no account has this email.
    public func issueAPIKey(email: String) async throws -> String {
        guard let key = await auth.issueAPIKey(email: email) else { throw UnknownAccountError(email: email) }
        return key
    }

    /// Sets how long access tokens issued from now on stay valid; tokens already issued keep their expiry.
    /// - Parameter lifetime: The new lifetime, for example `.milliseconds(200)`.
    public func setAccessTokenLifetime(_ lifetime: Duration) async {
        await auth.setAccessTokenLifetime(lifetime)
    }

    /// Makes every access token that is valid now expire: using one answers 401 `token_expired`.
    /// Refresh tokens stay valid.
    public func expireAccessTokens() async {
        await auth.expireAccessTokens()
    }

    /// Revokes every refresh token: using one answers 401 `invalid_refresh_token`.
    /// Access tokens stay valid until they expire.
    public func revokeRefreshTokens() async {
        await auth.revokeRefreshTokens()
    }

    /// How many requests the server has received for a path, whatever their outcome.
    ///
    /// Requests are counted as they arrive, before fault injection and authentication, so
    /// faulted and rejected requests count too.
    /// - Parameters:
    ///   - method: The method to count, such as `"POST"` (any case); `nil` counts every method.
    ///   - path: The exact path, such as `"/api/v1/auth/refresh"`, without a query.
    /// - Returns: The number of requests received since the server was made or ``resetCounters()`` was called.
    public func requestCount(method: String? = nil, path: String) async -> Int {
        requestCounter.count(method: method, path: path)
    }

    /// Sets every request count back to zero.
    public func resetCounters() async {
        requestCounter.reset()
    }

    /// The email verification token waiting for an account, as the server would have emailed it.
    /// - Parameter email: The account's email.
    /// - Returns: The token, or `nil` when there is no such account or its email is verified already.
    public func verificationToken(email: String) async -> String? {
        await auth.verificationToken(email: email)
    }

    /// The password reset code waiting for an account after `POST /api/v1/auth/forgot-password`,
    /// as the server would have emailed it.
    /// - Parameter email: The account's email.
    /// - Returns: The six-digit code, or `nil` when no reset is pending for that address.
    public func passwordResetCode(email: String) async -> String? {
        await auth.passwordResetCode(email: email)
    }

    /// How many HTTP/2 connections the server drained with a `GOAWAY`
    /// (``HTTP2Options/goAwayAfterRequests``); 0 when it drains none.
    public var goAwaysSent: Int {
        connectionDrain?.goAwaysSent ?? 0
    }
}

extension ReferenceServer {
    /// Finishes every PAT analysis still processing, whatever
    /// ``ReferenceServerConfiguration/analysisProcessingTime`` says, so a test need not wait.
    public func finishPendingAnalyses() async {
        await clarityStore.finishProcessing()
    }
}
