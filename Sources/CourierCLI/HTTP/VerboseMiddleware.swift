import Courier
import Foundation
import HTTPTypes

/// `courier get -v`, per attempt: each request as it goes out and each answer as it comes
/// back, with redacted headers, on standard error. As network middleware it sees every
/// attempt: retries, the resend after a renewed credential, each redirect hop (a credential
/// left behind at another origin shows as a missing `Authorization`).
struct VerboseMiddleware: Middleware {
    let write: @Sendable (String) -> Void

    func intercept(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: Next) async throws -> (HTTPResponse, HTTPBody?) {
        let started = ContinuousClock.now
        write("> \(request.method.rawValue) \(Redaction.redactedURL(request)) (attempt \(context.attempt))")
        for field in Redaction.redactedHeaders(request.headerFields) { write("> \(field.name): \(field.value)") }
        do {
            let (response, responseBody) = try await next(request, body, context)
            let reason = response.status.reasonPhrase.isEmpty ? "" : " \(response.status.reasonPhrase)"
            // `HTTP/2 200`, as curl -v shows it, when the transport named the version.
            let version = context.record.protocolVersion.map { "\($0) " } ?? ""
            write("< \(version)\(response.status.code)\(reason) in \(HTTPCallPlan.milliseconds(ContinuousClock.now - started)) ms")
            for field in Redaction.redactedHeaders(response.headerFields) { write("< \(field.name): \(field.value)") }
            return (response, responseBody)
        } catch {
            let reason = (error as? CourierError).map { "\($0.code): \($0.message)" } ?? "\(error)"
            write("! attempt \(context.attempt) failed after \(HTTPCallPlan.milliseconds(ContinuousClock.now - started)) ms: \(reason)")
            throw error
        }
    }
}

/// `courier get -v`, per call: the chain's decisions as the stages make them (``ChainEvent``),
/// one `* ` line each: the cache's answer and why, a join of an identical call in flight, each
/// retry with its wait and what set it, a renewed credential, each redirect and the fields it
/// left behind, a write kept by the offline queue.
struct ChainEventPrinter: Middleware {
    let write: @Sendable (String) -> Void

    func intercept(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: Next) async throws -> (HTTPResponse, HTTPBody?) {
        let write = self.write
        context.record.observe { event in write("* \(event.summary)") }
        return try await next(request, body, context)
    }
}
