import Foundation
import Hummingbird

/// Lets a request to the intervals routes through when it is signed the ways intervals.icu
/// takes: HTTP Basic with the user name `API_KEY` and a personal API key as the password, or
/// `Authorization: Bearer <access token>` (an OAuth token; here, one the server issued).
///
/// A missing or unknown credential is answered with 401 `unauthorized`; an expired bearer
/// token with 401 `token_expired` and `WWW-Authenticate: Bearer error="invalid_token"`, so that
/// an OAuth client refreshes.
struct IntervalsAccessMiddleware: RouterMiddleware {
    typealias Context = ReferenceRequestContext

    /// Where keys and tokens are checked.
    let auth: AuthService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let authorization = request.headers[.authorization] else {
            throw APIError.unauthorized("missing credentials: send an API key as Basic API_KEY:<key>, or a bearer token")
        }
        var context = context
        if let key = Self.apiKey(in: authorization) {
            guard let userId = await auth.user(forAPIKey: key) else { throw APIError.unauthorized("invalid API key") }
            context.userId = userId
            return try await next(request, context)
        }
        guard let token = AccessTokenMiddleware.bearerToken(in: authorization) else {
            throw APIError.unauthorized("invalid credentials: expected Basic API_KEY:<key> or a bearer token")
        }
        return try await next(request, AccessTokenMiddleware.signedIn(context, token: token, auth: auth))
    }

    /// The key of a `Basic` credential whose user name is `API_KEY`, or `nil` for anything else.
    static func apiKey(in authorization: String) -> String? {
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let decoded = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
              let text = String(data: decoded, encoding: .utf8) else { return nil }
        let pair = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard pair.count == 2, pair[0] == "API_KEY", !pair[1].isEmpty else { return nil }
        return String(pair[1])
    }
}
