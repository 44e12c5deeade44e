import Hummingbird

/// FastAPI's habit, which CLARITY's backend has: a collection route is declared with its
/// trailing slash (`/api/v1/health-data/`), and the same path without it is answered with
/// `307 Temporary Redirect` to the slashed path, query included, before anything else looks
/// at the request (a 307 keeps the method and the body, so a client re-sends a POST as it was).
struct TrailingSlashRedirectMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The routes declared with a trailing slash, without it.
    static var slashedRoutes: Set<String> { ["/api/v1", "/api/v1/health-data", "/api/v1/healthkit", "/api/v1/insights"] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.slashedRoutes.contains(request.uri.path) else { return try await next(request, context) }
        let query = request.uri.query.map { "?" + $0 } ?? ""
        return Response(status: .temporaryRedirect, headers: [.location: request.uri.path + "/" + query, .contentLength: "0"])
    }
}
