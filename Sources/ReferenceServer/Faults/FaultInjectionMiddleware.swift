import Hummingbird
import RadarCore

/// Applies the fault scripted for a request, if any, before authentication and the route.
///
/// It sits outside ``APIErrorMiddleware``, so its answers are built here, and a dropped
/// connection is not turned into a 500.
struct FaultInjectionMiddleware: RouterMiddleware {
    typealias Context = ReferenceRequestContext

    /// Thrown after the connection was closed on purpose, to end the request without an answer.
    struct ConnectionDroppedOnPurpose: Error {}

    /// The scripted faults.
    let faults: FaultInjector

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let fault = faults.takeFault(method: request.method.rawValue, path: request.uri.path) else {
            return try await next(request, context)
        }
        switch fault {
        case .status(let code):
            return try Self.errorResponse(status: HTTPResponse.Status(code: code))
        case .rateLimited(let retryAfter):
            return try Self.errorResponse(status: .tooManyRequests, headers: [.retryAfter: retryAfter])
        case .delay(let duration):
            try await Task.sleep(for: duration)
            return try await next(request, context)
        case .dropConnection:
            await context.closeConnection()
            throw ConnectionDroppedOnPurpose()
        case .refuseStream:
            if await !HTTP2Stream.reset(context.channel, code: .refusedStream) { await context.closeConnection() }
            throw ConnectionDroppedOnPurpose()
        }
    }

    /// The answer to an injected status: the JSON error, or no body for 204 and 304.
    static func errorResponse(status: HTTPResponse.Status, headers: HTTPFields = [:]) throws -> Response {
        if status == .noContent || status == .notModified {
            return Response.bodiless(status: status, headers: headers)
        }
        let body = APIErrorBody(message: "injected \(status.code)", code: "injected_fault")
        return try Response.json(body, status: status, headers: headers)
    }
}
