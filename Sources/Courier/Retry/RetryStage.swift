import Foundation
import HTTPTypes

/// The chain stage that retries failed attempts by the ``RetryPolicy``.
///
/// Each attempt goes down the rest of the chain (authentication, redirects, connectivity,
/// compression, the attempt's span, network middleware, transport) with a new
/// ``RequestContext/attempt``. Waits use the injected clock, so a cancelled task stops
/// waiting at once. Why retrying stopped is recorded in the call's
/// ``CallRecord`` and reported in the ``CourierError`` the caller gets.
struct RetryStage: Middleware {
    let policy: RetryPolicy
    let budget: RetryBudget
    let clock: any CourierClock

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let policy = context.options.retryPolicy ?? self.policy
        guard policy.maxAttempts > 1 else { return try await next(request, body, context) }
        budget.recordRequest()
        var generator = SystemRandomNumberGenerator()
        // The first attempt goes down with the caller's context as it is; a copy with a new
        // attempt number is made only when there is a second.
        var retryContext: RequestContext?
        while true {
            let outcome: Result<(HTTPResponse, HTTPBody?), any Error>
            do {
                if let retryContext {
                    outcome = .success(try await next(request, body, retryContext))
                } else {
                    outcome = .success(try await next(request, body, context))
                }
            } catch {
                outcome = .failure(error)
            }
            // Most responses are not worth another attempt: answer them without reading
            // the clock (this is what `decide` would conclude first).
            if case .success(let (response, _)) = outcome, !policy.retryableStatuses.contains(response.status.code) {
                return try outcome.get()
            }
            var attempt = RetryAttempt(
                method: request.method,
                hasIdempotencyKey: request.headerFields.contains(.idempotencyKey),
                bodyIsReplayable: body?.isReplayable ?? true,
                attempt: retryContext?.attempt ?? context.attempt
            )
            switch outcome {
            case .success(let (response, _)):
                attempt.status = response.status
                attempt.retryAfter = response.headerFields[.retryAfter]
            case .failure(let error as CourierError):
                attempt.failure = error.code
            case .failure:
                return try outcome.get()
            }
            if Task.isCancelled { return try outcome.get() }

            let timeLeft = context.deadline.map { clock.now.duration(to: $0) }
            var decision = policy.decide(attempt, now: clock.date, timeLeft: timeLeft, using: &generator)
            if case .retry = decision, !budget.tryRetry() {
                decision = .stop(.budgetExhausted)
            }
            guard case .retry(let delay) = decision else {
                if case .stop(let reason) = decision, reason != .notRetryable {
                    context.record.noteRetryStop(reason)
                }
                return try outcome.get()
            }
            if case .success(let (_, responseBody)) = outcome {
                _ = await responseBody?.prefix(upTo: 64 << 10)
            }
            let after: String
            let retryAfter: String?
            switch outcome {
            case .success(let (response, _)):
                after = "\(response.status.code)"
                // The server's value set the wait only where the policy honours it.
                let honoured = policy.honoursRetryAfter && [429, 503].contains(response.status.code)
                retryAfter = honoured ? attempt.retryAfter.flatMap { RetryAfter.parse($0, now: clock.date) == nil ? nil : $0 } : nil
            case .failure(let error):
                after = (error as? CourierError).map { "\($0.code)" } ?? "a failure"
                retryAfter = nil
            }
            context.record.note(.retrying(attempt: attempt.attempt + 1, delay: delay, after: after, retryAfter: retryAfter))
            try await clock.sleep(for: delay)
            var nextContext = retryContext ?? context
            nextContext.attempt += 1
            retryContext = nextContext
        }
    }
}
