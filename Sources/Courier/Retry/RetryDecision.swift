public import Foundation
public import HTTPTypes

/// What the retry stage does after an attempt.
public enum RetryDecision: Sendable, Hashable {
    /// Try again after waiting this long.
    case retry(after: Duration)
    /// Stop and hand the last outcome to the caller.
    case stop(RetryStopReason)
}

/// Why retrying stopped.
public enum RetryStopReason: Sendable, Hashable {
    /// The attempt succeeded, or failed in a way another attempt would not change.
    case notRetryable
    /// The policy's attempts are used up.
    case attemptsExhausted
    /// POST or PATCH without an idempotency key.
    case notIdempotent
    /// The body can be sent only once.
    case bodyNotReplayable
    /// The server asked for a longer wait than the policy allows.
    case retryAfterTooLong(Duration)
    /// The wait would end after the request's deadline.
    case deadlineWouldPass
    /// The client's retry budget is spent.
    case budgetExhausted
}

/// What an attempt produced, and what the policy needs to know about the request.
public struct RetryAttempt: Sendable {
    /// The status, when a response arrived.
    public var status: HTTPResponse.Status?
    /// The `Retry-After` header, when a response carried one.
    public var retryAfter: String?
    /// The failure's code, when no response arrived.
    public var failure: CourierError.Code?
    /// Whether the failure guarantees the server did not process the request
    /// (``CourierError/neverProcessed``): then any method may be sent again.
    public var neverProcessed: Bool
    /// Whether the failure came before any of the response (``CourierError/failedBeforeResponse``).
    public var failedBeforeResponse = false
    /// How many of the call's attempts so far, this one included, ended in a connection or stream
    /// lost before any of the response (``isLossBeforeResponse``).
    public var lossesBeforeResponse: Int = 0

    /// A connection or stream lost before any of the answer, as a server that drains its
    /// connections (an HTTP/2 `GOAWAY`, a refused stream) causes: the first such loss of a call,
    /// when resending is safe, goes again at once, with one more attempt than the policy's and
    /// no retry budget spent, as gRPC's transparent retries do.
    public var isLossBeforeResponse: Bool {
        status == nil && failure == .connectionLost && (failedBeforeResponse || neverProcessed)
    }

    /// Whether this is the call's first loss before the answer: the one retried at once, with
    /// no retry budget spent.
    var isFirstLossBeforeResponse: Bool { isLossBeforeResponse && lossesBeforeResponse <= 1 }
    /// The request's method.
    public var method: HTTPRequest.Method
    /// Whether the request carries an `Idempotency-Key`.
    public var hasIdempotencyKey: Bool
    /// Whether the body, if any, can be sent again.
    public var bodyIsReplayable: Bool
    /// How many attempts have been made, this one included.
    public var attempt: Int

    /// Describes an attempt.
    public init(
        status: HTTPResponse.Status? = nil,
        retryAfter: String? = nil,
        failure: CourierError.Code? = nil,
        neverProcessed: Bool = false,
        method: HTTPRequest.Method,
        hasIdempotencyKey: Bool = false,
        bodyIsReplayable: Bool = true,
        attempt: Int
    ) {
        self.status = status
        self.retryAfter = retryAfter
        self.failure = failure
        self.neverProcessed = neverProcessed
        self.method = method
        self.hasIdempotencyKey = hasIdempotencyKey
        self.bodyIsReplayable = bodyIsReplayable
        self.attempt = attempt
    }
}

extension RetryPolicy {
    /// Decides whether to try again, and after how long.
    ///
    /// A pure function: the same attempt, time and random draws give the same decision.
    /// - Parameters:
    ///   - attempt: What the attempt produced.
    ///   - now: The wall-clock date, for `Retry-After` dates.
    ///   - timeLeft: How long until the request's deadline, if it has one.
    ///   - generator: The source of jitter.
    /// - Returns: Retry after a delay, or stop with a reason.
    public func decide(
        _ attempt: RetryAttempt,
        now: Date,
        timeLeft: Duration?,
        using generator: inout some RandomNumberGenerator
    ) -> RetryDecision {
        if let status = attempt.status {
            guard retryableStatuses.contains(status.code) else { return .stop(.notRetryable) }
        } else if let failure = attempt.failure {
            guard retryableFailures.contains(failure) else { return .stop(.notRetryable) }
        } else {
            return .stop(.notRetryable)
        }
        // A request the server never processed can go again whatever its method: nothing of it
        // was applied. Anything else is sent twice only when that is safe by method or by key.
        let unprocessed = attempt.status == nil && attempt.neverProcessed
        guard unprocessed || Self.idempotentMethods.contains(attempt.method) || attempt.hasIdempotencyKey else {
            return .stop(.notIdempotent)
        }
        guard attempt.bodyIsReplayable else { return .stop(.bodyNotReplayable) }
        guard attempt.attempt < maxAttempts + (attempt.lossesBeforeResponse > 0 ? 1 : 0) else { return .stop(.attemptsExhausted) }

        var delay = backoff.delay(afterFailedAttempts: attempt.attempt, using: &generator)
        // The first connection or stream a live server lost before answering (a drained HTTP/2
        // connection, a refused stream) goes again at once; a connection never made backs off.
        if attempt.isFirstLossBeforeResponse { delay = .zero }
        if honoursRetryAfter, let status = attempt.status?.code, status == 429 || status == 503,
           let header = attempt.retryAfter, let requested = RetryAfter.parse(header, now: now) {
            guard requested <= backoff.maxDelay else { return .stop(.retryAfterTooLong(requested)) }
            delay = requested
        }
        if let timeLeft, delay >= timeLeft { return .stop(.deadlineWouldPass) }
        return .retry(after: delay)
    }
}

extension RetryStopReason {
    /// The reason in words, for error messages.
    public var explanation: String {
        switch self {
        case .notRetryable: return "the outcome is not worth another attempt"
        case .attemptsExhausted: return "the policy's attempts are used up"
        case .notIdempotent: return "the method is not idempotent and the request has no idempotency key"
        case .bodyNotReplayable: return "the body can be sent only once"
        case .retryAfterTooLong(let wait): return "the server asked to wait \(wait), longer than the policy allows"
        case .deadlineWouldPass: return "the next attempt would end after the request's deadline"
        case .budgetExhausted: return "the client's retry budget is spent"
        }
    }
}
