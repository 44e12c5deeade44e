import Hummingbird
import Logging

/// Turns every error thrown by a route, including Hummingbird's own "no such route",
/// into a JSON response: an `APIErrorBody`, or on CLARITY's paths the shapes of CLARITY's
/// backend (``ClarityErrorShape``).
///
/// Errors thrown while a response body is being streamed happen after this middleware
/// returned; Hummingbird answers those by closing the connection.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try Self.render(error, path: request.uri.path)
        } catch let error as any HTTPResponseError {
            return try Self.render(Self.apiError(for: error, request: request), path: request.uri.path)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            context.logger.error("unhandled error in \(request.method) \(request.uri.path): \(error)")
            return try Self.render(APIError.internalFailure("internal server error"), path: request.uri.path)
        }
    }

    /// The response for an error on a path: CLARITY's shapes on its paths
    /// (``ClarityErrorShape``), `{code, message}` everywhere else.
    static func render(_ error: APIError, path: String) throws -> Response {
        ClarityErrorShape.applies(to: path) ? try ClarityErrorShape.response(for: error, path: path) : try error.response()
    }

    /// The API error matching one of Hummingbird's HTTP errors.
    private static func apiError(for error: any HTTPResponseError, request: Request) -> APIError {
        switch error.status {
        case .notFound:
            return .notFound("no route for \(request.method) \(request.uri.path)")
        case .contentTooLarge:
            return .payloadTooLarge("request body too large")
        case .badRequest:
            return .badRequest("bad request")
        default:
            let code = error.status.code
            return APIError(status: error.status, code: "status_\(code)", message: "status \(code)")
        }
    }
}
