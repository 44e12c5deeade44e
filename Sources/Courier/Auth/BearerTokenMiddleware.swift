public import HTTPTypes

/// Signs requests with a fixed bearer token, such as an API key that never expires.
///
/// Requests with ``RequestOptions/requiresAuth`` set to `false` are sent unsigned, and a
/// request that already carries `Authorization` keeps its own. So is a request to an origin
/// the client does not sign for (``RequestContext/mayCarryCredentials(_:)``): an absolute URL
/// to another server, a "next page" link elsewhere, or, as network middleware, a redirect hop
/// to another origin. Tokens that expire need refreshing and belong to an authenticator instead.
public struct BearerTokenMiddleware: Middleware {
    private let token: String

    /// Makes the middleware.
    /// - Parameter token: The token, sent as `Authorization: Bearer <token>`.
    public init(token: String) {
        self.token = token
    }

    /// Adds the `Authorization` field when the request needs it.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard context.options.requiresAuth, !request.headerFields.contains(.authorization), context.mayCarryCredentials(request) else {
            return try await next(request, body, context)
        }
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, context)
    }
}
