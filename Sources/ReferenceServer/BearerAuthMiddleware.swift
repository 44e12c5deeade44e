import Foundation
import Hummingbird

/// Lets a request through only when it carries `Authorization: Bearer <token>` with the expected token.
///
/// A missing or wrong token is answered with 401, code `unauthorized` and `WWW-Authenticate: Bearer`.
struct BearerAuthMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The token requests must present.
    let expectedToken: String

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let authorization = request.headers[.authorization] else {
            throw APIError.unauthorized("missing bearer token")
        }
        guard let token = Self.bearerToken(in: authorization), token == expectedToken else {
            throw APIError.unauthorized("invalid bearer token")
        }
        return try await next(request, context)
    }

    /// The token of a `Bearer` credential, matching the scheme case-insensitively.
    static func bearerToken(in authorization: String) -> String? {
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
