import Courier
import Foundation
import HTTPTypes
import Synchronization

/// `courier get -v`: each attempt as it goes out and comes back, with redacted headers, on
/// standard error. As network middleware it sees every attempt: retries (with the wait before
/// each and what set it: the server's `Retry-After`, or backoff), the resend after a refreshed
/// credential, and each redirect hop (where the credential was dropped shows).
///
/// A `final class` whose per-call state sits in a `Mutex`, which makes it `Sendable`.
final class VerboseMiddleware: Middleware {
    let write: @Sendable (String) -> Void
    /// How each call's last attempt ended, by request id: when, with what status, and the
    /// `Retry-After` it carried.
    private let lastAnswers = Mutex<[String: (ended: ContinuousClock.Instant, outcome: String, retryAfter: String?)]>([:])

    init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    func intercept(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: Next) async throws -> (HTTPResponse, HTTPBody?) {
        let started = ContinuousClock.now
        if let last = lastAnswers.withLock({ $0[context.requestID] }) {
            let cause = last.retryAfter.map { "the server's Retry-After: \($0)" } ?? "backoff"
            write("* retrying after \(last.outcome): waited \(HTTPCallPlan.milliseconds(started - last.ended)) ms (\(cause))")
        }
        write("> \(request.method.rawValue) \(Redaction.redactedURL(request)) (attempt \(context.attempt))")
        for field in Redaction.redactedHeaders(request.headerFields) { write("> \(field.name): \(field.value)") }
        do {
            let (response, responseBody) = try await next(request, body, context)
            let ended = ContinuousClock.now
            let reason = response.status.reasonPhrase.isEmpty ? "" : " \(response.status.reasonPhrase)"
            write("< \(response.status.code)\(reason) in \(HTTPCallPlan.milliseconds(ended - started)) ms")
            for field in Redaction.redactedHeaders(response.headerFields) { write("< \(field.name): \(field.value)") }
            remember(context.requestID, ended: ended, outcome: "\(response.status.code)", retryAfter: response.headerFields[.retryAfter])
            return (response, responseBody)
        } catch {
            let ended = ContinuousClock.now
            let reason = (error as? CourierError).map { "\($0.code): \($0.message)" } ?? "\(error)"
            write("! attempt \(context.attempt) failed after \(HTTPCallPlan.milliseconds(ended - started)) ms: \(reason)")
            remember(context.requestID, ended: ended, outcome: (error as? CourierError).map { "\($0.code)" } ?? "a failure", retryAfter: nil)
            throw error
        }
    }

    private func remember(_ requestID: String, ended: ContinuousClock.Instant, outcome: String, retryAfter: String?) {
        lastAnswers.withLock { answers in
            // One command runs one call (a redirect or retry keeps its id); keep the map small anyway.
            if answers.count > 64 { answers.removeAll() }
            answers[requestID] = (ended, outcome, retryAfter)
        }
    }
}
