import HTTPTypes

/// Which user a request belongs to, for keeping users' cached and shared responses apart:
/// the signed-in account's id, else a keyed digest of the access token, else of the
/// request's own `Authorization` or `Cookie`, else the shared (empty) partition. Worked out
/// once per call by the first stage that needs it and carried in ``RequestContext``; the
/// cache stores a response under the partition of the identity that actually signed it
/// (``storePartition(lookedUp:record:digest:)``).
enum UserPartition {
    static func of(_ request: HTTPRequest, context: RequestContext, auth: SessionResolver, digest: CredentialDigest) async -> String {
        if let known = context.userPartition { return known }
        if context.options.requiresAuth, !auth.isEmpty, context.mayCarryCredentials(request), let credential = await auth.credential(for: context.options) {
            return of(credential, digest: digest)
        }
        return withoutSession(request, digest: digest)
    }

    /// The partition of the requests a credential signs.
    static func of(_ credential: Credential, digest: CredentialDigest) -> String {
        credential.accountID ?? "token-" + digest(credential.accessToken)
    }

    /// The partition of a request that no ``AuthSession`` signs: a digest of its own
    /// `Authorization`, else of its `Cookie`, else the shared (empty) partition.
    static func withoutSession(_ request: HTTPRequest, digest: CredentialDigest) -> String {
        of(authorization: request.headerFields.contains(.authorization) ? request.headerFields[.authorization] : nil,
           cookie: request.headerFields.contains(.cookie) ? request.headerFields[.cookie] : nil,
           digest: digest)
    }

    /// The partition of the credential fields a request carried.
    static func of(authorization: String?, cookie: String?, digest: CredentialDigest) -> String {
        if let authorization { return "auth-" + digest(authorization) }
        if let cookie { return "cookie-" + digest(cookie) }
        return ""
    }

    /// The partition to store a response under: that of the identity that signed the request
    /// as it went out (the session's credential, or the `Authorization` or `Cookie` a network
    /// middleware added), which may differ from the one looked up when a sign-in, a sign-out
    /// or a refresh happened in between.
    static func storePartition(lookedUp: String, record: CallRecord, digest: CredentialDigest) -> String {
        if let credential = record.signingCredential { return of(credential, digest: digest) }
        guard let sent = record.sentCredentials else { return lookedUp }
        return of(authorization: sent.authorization, cookie: sent.cookie, digest: digest)
    }
}
