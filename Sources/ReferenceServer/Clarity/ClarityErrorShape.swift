import ClarityOpenAPI
import Foundation
import Hummingbird

/// CLARITY's error bodies, as its backend's document and its FastAPI routes give them, for a
/// failure on a CLARITY path (under `/api/v1`, but not the intervals routes):
///
/// - 422: FastAPI's validation list, the document's `HTTPValidationError`
///   (`{"detail": [{"loc": ["body"], "msg": "…", "type": "validation_failed"}]}`);
/// - under `/api/v1/auth/`: an RFC 9457 problem nested in `detail`
///   (`{"detail": {"type": "invalid_credentials", "title", "detail", "status", "instance"}}`);
/// - anywhere else: the document's `ErrorResponse` (`{"error": "…", "code": "…", "details": {}}`).
///
/// Radar and intervals paths keep the reference APIs' `{code, message}`.
enum ClarityErrorShape {
    /// Whether a path is CLARITY's.
    static func applies(to path: String) -> Bool {
        path.hasPrefix("/api/v1/") && !path.hasPrefix("/api/v1/athlete/") && !path.hasPrefix("/api/v1/activity/")
    }

    /// The response for an error on a CLARITY path.
    static func response(for error: APIError, path: String) throws -> Response {
        let rendered = try encoded(error, path: path)
        return Response(status: rendered.status, headers: rendered.fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: rendered.body)))
    }

    /// The status, header fields and JSON body of an error on a CLARITY path.
    static func encoded(_ error: APIError, path: String) throws -> (status: HTTPResponse.Status, fields: HTTPFields, body: Data) {
        let body: any Encodable
        if error.status == .unprocessableContent {
            body = Components.Schemas.HTTPValidationError(detail: [
                Components.Schemas.ValidationError(loc: error.location.map { .init(value1: $0) }, msg: error.message, _type: error.code),
            ])
        } else if path.hasPrefix("/api/v1/auth/") {
            body = ProblemInDetail(detail: .init(
                type: error.code, title: error.status.reasonPhrase, detail: error.message, status: error.status.code, instance: path
            ))
        } else {
            body = Components.Schemas.ErrorResponse(code: error.code, details: .init(), error: error.message)
        }
        var fields = error.headers
        fields[.contentType] = "application/json"
        return (error.status, fields, try APIJSON.makeEncoder().encode(body))
    }

    /// `{"detail": {problem}}`.
    private struct ProblemInDetail: Encodable {
        struct Problem: Encodable {
            let type: String
            let title: String
            let detail: String
            let status: Int
            let instance: String
        }

        let detail: Problem
    }
}
