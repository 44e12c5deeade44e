public import HTTPTypes

/// When and how a failed request is tried again.
///
/// The retry stage asks the policy after every attempt; the answer is a pure function of
/// the outcome, the attempt count, the request and the time left (see
/// ``decide(_:now:timeLeft:using:)``), so the rules are tested without a network.
///
/// - Only idempotent methods (GET, HEAD, OPTIONS, PUT, DELETE, TRACE) are retried, unless the
///   request carries an `Idempotency-Key`; then POST and PATCH are too, with the same key on
///   every attempt. A failure the server is known not to have processed
///   (``CourierError/neverProcessed``: a connection never made, an HTTP/2 stream refused or
///   opened after a `GOAWAY`) is retried for every method: nothing was applied.
/// - The first connection or stream a call loses before any of its answer (a server draining
///   its HTTP/2 connections with `GOAWAY`, a refused stream) goes again at once when resending is
///   safe, with one attempt more than ``maxAttempts`` and no retry budget spent, so that a
///   routine drain costs no call.
/// - A single-use body is never sent twice.
/// - `Retry-After` on 429 and 503 is honoured, up to ``Backoff/maxDelay``; a longer wait, or
///   one past the request's deadline, ends retrying with the server's answer.
///
/// ```swift
/// var request = Orders.create(order)
/// request.options.idempotencyKey = UUID().uuidString
/// request.options.retryPolicy = .aggressive
/// ```
public struct RetryPolicy: Sendable, Hashable {
    /// The most attempts, the first included: 1 means no retry.
    public var maxAttempts: Int
    /// The wait between attempts.
    public var backoff: Backoff
    /// Statuses worth another attempt.
    public var retryableStatuses: Set<Int>
    /// Transport failures worth another attempt.
    public var retryableFailures: Set<CourierError.Code>
    /// Whether `Retry-After` on 429 and 503 sets the wait.
    public var honoursRetryAfter: Bool

    /// Makes a policy.
    /// - Parameters:
    ///   - maxAttempts: The most attempts, the first included.
    ///   - backoff: The wait between attempts.
    ///   - retryableStatuses: Statuses worth another attempt (408, 429, 500, 502, 503, 504 by default).
    ///   - retryableFailures: Transport failures worth another attempt (refused, reset or lost
    ///     connections and timeouts by default; never cancellation or TLS failures).
    ///   - honoursRetryAfter: Whether `Retry-After` sets the wait.
    public init(
        maxAttempts: Int,
        backoff: Backoff = .exponential(),
        retryableStatuses: Set<Int> = RetryPolicy.defaultRetryableStatuses,
        retryableFailures: Set<CourierError.Code> = RetryPolicy.defaultRetryableFailures,
        honoursRetryAfter: Bool = true
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.backoff = backoff
        self.retryableStatuses = retryableStatuses
        self.retryableFailures = retryableFailures
        self.honoursRetryAfter = honoursRetryAfter
    }

    /// 408, 429, 500, 502, 503 and 504.
    public static let defaultRetryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// Connection refused, reset or lost, and timeouts.
    public static let defaultRetryableFailures: Set<CourierError.Code> = [.cannotConnect, .connectionLost, .timedOut]
    /// Methods that may be sent twice without an idempotency key (RFC 9110, section 9.2.2).
    public static let idempotentMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .put, .delete, .trace]

    /// Three attempts, exponential from 0.5 s up to 30 s, full jitter.
    public static let `default` = RetryPolicy(maxAttempts: 3, backoff: .exponential(base: .milliseconds(500), maxDelay: .seconds(30)))
    /// Five attempts, exponential from 0.25 s up to 10 s, full jitter: for calls the user is waiting on.
    public static let aggressive = RetryPolicy(maxAttempts: 5, backoff: .exponential(base: .milliseconds(250), maxDelay: .seconds(10)))
    /// One attempt: no retry.
    public static let none = RetryPolicy(maxAttempts: 1, backoff: .none)
}
