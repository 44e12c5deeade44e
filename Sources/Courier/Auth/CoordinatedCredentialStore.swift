/// A ``CredentialStore`` shared by several processes that also coordinates refreshes, so that
/// however many of them meet the same expired credential at once, the refresh token is used
/// once: `CourierPostgres`'s `PostgresCredentialStore` holds a lock per account for the
/// refresh and compares the stored credential first.
///
/// ``AuthSession`` calls ``refresh(_:using:)`` instead of its authenticator's refresh when its
/// store is one of these, and does not save the result again: the store has saved it.
public protocol CoordinatedCredentialStore: CredentialStore {
    /// Renews `credential` unless another process already has: returns the stored credential
    /// when it is no longer `credential` (compared by access token), else the result of
    /// `renew`, saved before this returns, while no other process may renew it.
    /// - Parameters:
    ///   - credential: The credential found expired or rejected.
    ///   - renew: The authenticator's refresh.
    func refresh(
        _ credential: Credential,
        using renew: @escaping @Sendable (Credential) async throws -> Credential
    ) async throws -> Credential
}
