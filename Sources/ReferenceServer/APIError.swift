import Hummingbird
import RadarCore

/// A failure the server answers with a JSON `APIErrorBody`.
struct APIError: Error, Sendable {
    /// The status to answer with.
    var status: HTTPResponse.Status
    /// The machine-readable code in the body.
    var code: String
    /// The human-readable message in the body.
    var message: String
    /// Extra headers for the response, for example `WWW-Authenticate`.
    var headers: HTTPFields = [:]
    /// Where a 422 found the problem, as FastAPI's validation errors say it on CLARITY's paths
    /// (`["body"]`, `["body", "email"]`, `["query", "limit"]`).
    var location: [String] = ["body"]

    /// The JSON body for this error.
    var body: APIErrorBody { APIErrorBody(message: message, code: code) }

    /// 400: the request could not be understood, for example a malformed JSON body.
    static func badRequest(_ message: String) -> APIError {
        APIError(status: .badRequest, code: "bad_request", message: message)
    }

    /// 401: the bearer token is missing or wrong.
    static func unauthorized(_ message: String) -> APIError {
        APIError(status: .unauthorized, code: "unauthorized", message: message, headers: [.wwwAuthenticate: "Bearer"])
    }

    /// 404: no such resource or route.
    static func notFound(_ message: String) -> APIError {
        APIError(status: .notFound, code: "not_found", message: message)
    }

    /// 413: the request body is larger than the route accepts.
    static func payloadTooLarge(_ message: String) -> APIError {
        APIError(status: .contentTooLarge, code: "payload_too_large", message: message)
    }

    /// 422: the request was understood but its values are not acceptable.
    static func validationFailed(_ message: String) -> APIError {
        APIError(status: .unprocessableContent, code: "validation_failed", message: message)
    }

    /// 422 as FastAPI answers a request that does not match the operation's schema: `type`
    /// (`json_invalid`, `missing`, …) and where (`["body", "email"]`).
    static func requestInvalid(_ type: String, at location: [String], _ message: String) -> APIError {
        APIError(status: .unprocessableContent, code: type, message: message, location: location)
    }

    /// 500: the server failed.
    static func internalFailure(_ message: String) -> APIError {
        APIError(status: .internalServerError, code: "internal", message: message)
    }

    /// The response for this error.
    func response() throws -> Response {
        try Response.json(body, status: status, headers: headers)
    }
}
