/// Finds the ``AuthSession`` that signs a request: the one its ``RequestOptions/account``
/// names among the client's ``AccountSessions``, else the client's own.
///
/// `Sendable`: its stored properties are immutable and `Sendable`.
struct SessionResolver: Sendable {
    /// The client's single session (``ClientConfiguration/auth``).
    let single: AuthSession?
    /// The client's sessions per account (``ClientConfiguration/accounts``).
    let accounts: AccountSessions?

    /// Whether any session may sign requests.
    var isEmpty: Bool { single == nil && accounts == nil }

    /// The error of a request that names an account in a client without ``AccountSessions``.
    static let noAccountSessions = CourierError(
        code: .invalidRequest, message: "the request names an account, and the client has no AccountSessions (ClientConfiguration.accounts)"
    )

    /// The session for a request's options.
    /// - Throws: ``CourierError/Code/invalidRequest`` when the request names an account and
    ///   the client keeps no sessions per account.
    func session(for options: RequestOptions) async throws -> AuthSession? {
        guard let account = options.account else { return single }
        guard let accounts else { throw Self.noAccountSessions }
        return await accounts.session(for: account)
    }

    /// The credential that would sign a request with these options, if any.
    func credential(for options: RequestOptions) async -> Credential? {
        guard let session = try? await session(for: options) else { return nil }
        return try? await session.credential
    }
}
