import Hummingbird

/// Lets a request through only when it carries `Authorization: Bearer <access token>` with a
/// token the server issued and that is still valid, and records its user in the context.
///
/// A missing, malformed, unknown or revoked token is answered with 401 `unauthorized`; an
/// expired one with 401 `token_expired` and `WWW-Authenticate: Bearer error="invalid_token"`.
struct AccessTokenMiddleware: RouterMiddleware {
    typealias Context = ReferenceRequestContext

    /// Where tokens are checked.
    let auth: AuthService

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let authorization = request.headers[.authorization] else {
            throw APIError.unauthorized("missing bearer token")
        }
        guard let token = Self.bearerToken(in: authorization) else {
            throw APIError.unauthorized("invalid bearer token")
        }
        return try await next(request, Self.signedIn(context, token: token, auth: auth))
    }

    /// The context with the user of a valid access token recorded in it.
    /// - Throws: ``APIError`` 401 `token_expired` (with `WWW-Authenticate`) for an expired
    ///   token, 401 `unauthorized` for one the server never issued or revoked.
    static func signedIn(_ context: Context, token: String, auth: AuthService) async throws -> Context {
        switch await auth.checkAccess(token) {
        case .valid(let userId):
            var context = context
            context.userId = userId
            context.accessToken = token
            return context
        case .expired:
            throw APIError.tokenExpired()
        case .unknown:
            throw APIError.unauthorized("invalid bearer token")
        }
    }

    /// The token of a `Bearer` credential, matching the scheme case-insensitively.
    static func bearerToken(in authorization: String) -> String? {
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
