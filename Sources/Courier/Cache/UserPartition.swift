import HTTPTypes

/// Which user a request belongs to, for keeping users' cached and shared responses apart:
/// the signed-in account's id, else a digest of the access token or of the request's own
/// `Authorization`, else the shared (empty) partition. Computed once per call by the first
/// stage that needs it and carried in ``RequestContext``.
enum UserPartition {
    static func of(_ request: HTTPRequest, context: RequestContext, auth: AuthSession?) async -> String {
        if let known = context.userPartition { return known }
        if context.options.requiresAuth, let auth, let credential = try? await auth.credential {
            return of(credential)
        }
        return withoutSession(request)
    }

    /// The partition of the requests a credential signs.
    static func of(_ credential: Credential) -> String {
        credential.accountID ?? "token-" + Digest.fnv1a(credential.accessToken)
    }

    /// The partition of a request that no ``AuthSession`` signs: a digest of its own
    /// `Authorization`, else the shared (empty) partition.
    static func withoutSession(_ request: HTTPRequest) -> String {
        // `contains` first: most requests have no Authorization, and reading a value joins them.
        if request.headerFields.contains(.authorization), let authorization = request.headerFields[.authorization] {
            return "auth-" + Digest.fnv1a(authorization)
        }
        return ""
    }
}
