import Hummingbird
import Logging
import OpenAPIRuntime

/// Turns every error thrown by a route, including Hummingbird's own "no such route",
/// into a JSON response: an `APIErrorBody`, or on CLARITY's paths the shapes of CLARITY's
/// backend (``ClarityErrorShape``).
///
/// CLARITY's operations run through the server code generated from its document, which wraps
/// what they throw in swift-openapi-runtime's `ServerError`: an ``APIError`` inside is answered
/// as it is; a request the generated code could not read as the operation's input (a body that
/// is not JSON or misses a field, a parameter of the wrong type, no body) is a 422 in FastAPI's
/// validation shape, as the real service answers it.
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
        } catch let error as ServerError {
            if error.underlyingError is CancellationError { throw CancellationError() }
            guard let failure = Self.apiError(for: error) else {
                context.logger.error("unhandled error in \(request.method) \(request.uri.path): \(error.causeDescription): \(error.underlyingError)")
                return try Self.render(APIError.internalFailure("internal server error"), path: request.uri.path)
            }
            return try Self.render(failure, path: request.uri.path)
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

    /// The answer to an operation's failure: the ``APIError`` it threw, a 422 for a request that
    /// did not match the operation, `nil` for anything else (a 500).
    static func apiError(for error: ServerError) -> APIError? {
        if let failure = error.underlyingError as? APIError { return failure }
        // The runtime answers a request it could not read as the operation's input with a 4xx
        // (400, or 415 for a body of another content type); a failure of the server is a 500.
        guard error.operationInput == nil, (400..<500).contains(error.httpStatus.code) else { return nil }
        func location(_ path: [any CodingKey], _ message: String) -> [String] {
            let names = path.map(\.stringValue)
            let target = error.request.path ?? ""
            let query = QueryItems(rawQuery: target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) })
            // A coding path that starts with one of the request's query items is the query's; a
            // value the decoder quotes is the query item that holds it (a date the transcoder
            // refused names no path); a request without a body has only its query to get wrong.
            if let first = names.first, query.first(first) != nil { return ["query"] + names }
            if names.isEmpty, let item = query.pairs.first(where: { message.contains("\"\($0.value)\"") }) { return ["query", item.name] }
            if names.isEmpty, error.request.method == .get || error.request.method == .delete { return ["query"] }
            return ["body"] + names
        }
        switch error.underlyingError {
        case DecodingError.keyNotFound(let key, let context):
            return .requestInvalid("missing", at: location(context.codingPath + [key], ""), "Field required")
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context), DecodingError.dataCorrupted(let context):
            return .requestInvalid("value_error", at: location(context.codingPath, context.debugDescription), context.debugDescription)
        default:
            return .requestInvalid("value_error", at: ["request"], error.causeDescription)
        }
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
