import Hummingbird

/// Counts every request as it arrives, before faults, authentication and routing.
struct RequestCountingMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Where the counts are kept.
    let counter: RequestCounter

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        counter.record(method: request.method.rawValue, path: request.uri.path)
        return try await next(request, context)
    }
}
