import Courier
import Foundation
import HTTPTypes

/// `courier get -v`: each attempt as it goes out and comes back, with redacted headers, on
/// standard error. As network middleware it sees every attempt: retries, the resend after a
/// refreshed credential, and each redirect hop (where the credential was dropped shows).
struct VerboseMiddleware: Middleware {
    let write: @Sendable (String) -> Void

    func intercept(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: Next) async throws -> (HTTPResponse, HTTPBody?) {
        write("> \(request.method.rawValue) \(Redaction.redactedURL(request)) (attempt \(context.attempt))")
        for field in Redaction.redactedHeaders(request.headerFields) { write("> \(field.name): \(field.value)") }
        let started = ContinuousClock.now
        do {
            let (response, responseBody) = try await next(request, body, context)
            let reason = response.status.reasonPhrase.isEmpty ? "" : " \(response.status.reasonPhrase)"
            write("< \(response.status.code)\(reason) in \(HTTPCallPlan.milliseconds(ContinuousClock.now - started)) ms")
            for field in Redaction.redactedHeaders(response.headerFields) { write("< \(field.name): \(field.value)") }
            return (response, responseBody)
        } catch {
            let reason = (error as? CourierError).map { "\($0.code): \($0.message)" } ?? "\(error)"
            write("! attempt \(context.attempt) failed after \(HTTPCallPlan.milliseconds(ContinuousClock.now - started)) ms: \(reason)")
            throw error
        }
    }
}
