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
        // The first attempt goes down with the caller's context as it is. Most responses are
        // not worth another attempt: they are answered here, without reading the clock (this
        // is what `decide` would conclude first). Every call allocates this frame, and an async
        // frame keeps a slot for each call's result and each value held across a wait: so one
        // call of `next` here, and the rest of the work in functions of its own.
        let retryable = startCall(context)
        let first: Result<(HTTPResponse, HTTPBody?), any Error>
        do {
            let response = try await next(request, body, context)
            guard let retryable, Self.contains(retryable, response.0.status) else { return response }
            first = .success(response)
        } catch {
            guard retryable != nil else { throw error }
            first = .failure(error)
        }
        return try await retrying(after: first, request: request, body: body, context: context, next: next)
    }

    /// The call's policy: the request's own, else the client's.
    private func policy(for context: RequestContext) -> RetryPolicy {
        context.options.retryPolicy ?? policy
    }

    /// Whether a status is among the retryable ones (out of line, so that the hashing is not
    /// in `intercept`'s frame).
    @inline(never)
    private static func contains(_ retryable: Set<Int>, _ status: HTTPResponse.Status) -> Bool {
        retryable.contains(status.code)
    }

    /// The statuses the call's policy retries, with the call counted in the budget; `nil` when
    /// the policy allows one attempt.
    @inline(never)
    private func startCall(_ context: RequestContext) -> Set<Int>? {
        let policy = self.policy(for: context)
        guard policy.maxAttempts > 1 else { return nil }
        budget.recordRequest()
        return policy.retryableStatuses
    }

    /// Decides on the outcome of an attempt that may be retried, and goes on attempting
    /// while the policy, the budget and the deadline allow.
    @inline(never)
    private func retrying(
        after first: Result<(HTTPResponse, HTTPBody?), any Error>,
        request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let policy = self.policy(for: context)
        var generator = SystemRandomNumberGenerator()
        // A copy of the context with a new attempt number is made only for a second attempt.
        var retryContext: RequestContext?
        var outcome = first
        var lossesBeforeResponse = 0
        while true {
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
                attempt.neverProcessed = error.neverProcessed
                attempt.failedBeforeResponse = error.failedBeforeResponse
                if attempt.isLossBeforeResponse { lossesBeforeResponse += 1 }
            case .failure:
                return try outcome.get()
            }
            attempt.lossesBeforeResponse = lossesBeforeResponse
            if Task.isCancelled { return try outcome.get() }

            let timeLeft = context.deadline.map { clock.now.duration(to: $0) }
            var decision = policy.decide(attempt, now: clock.date, timeLeft: timeLeft, using: &generator)
            // The first connection or stream a live server lost before answering goes again
            // without spending the budget (see RetryAttempt.isLossBeforeResponse); attempts and
            // the deadline still bound it.
            if case .retry = decision, !attempt.isFirstLossBeforeResponse, !budget.tryRetry() {
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
            do {
                outcome = .success(try await next(request, body, nextContext))
            } catch {
                outcome = .failure(error)
            }
            if case .success(let response) = outcome, !policy.retryableStatuses.contains(response.0.status.code) {
                return response
            }
        }
    }
}
