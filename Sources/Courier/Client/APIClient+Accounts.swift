extension APIClient {
    /// Signs the user out of this client: forgets the credential (in the ``AuthSession`` and
    /// its store) and removes the user's cached responses from memory and disk.
    ///
    /// The cache partition removed is the one the user's requests were stored under: the
    /// credential's ``Credential/accountID``, or, for a credential that names no account, the
    /// one derived from its current access token. Writes the user left in the
    /// ``OfflineQueue`` stay theirs: they are not delivered while another account is signed
    /// in (see the queue's "Accounts").
    ///
    /// Without a session this does nothing.
    /// - Throws: The credential store's or the cache storage's error; the session is signed
    ///   out even when removing the cached responses fails.
    public func signOut() async throws {
        guard let auth = configuration.auth else { return }
        let credential = try? await auth.credential
        try await auth.signOut()
        if let cache = configuration.cache, let credential {
            let partition = UserPartition.of(credential, digest: cache.credentialDigest)
            try await cache.clear(partition: partition)
        }
    }
}
