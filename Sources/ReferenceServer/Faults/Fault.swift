/// A failure the reference server stages instead of, or before, answering a request.
///
/// Script faults with ``FaultInjector/inject(_:count:method:path:)``; a faulted request is
/// counted by ``ReferenceServer/requestCount(method:path:)`` but reaches neither
/// authentication nor the route (except after a ``delay(_:)``).
public enum Fault: Sendable, Hashable {
    /// Answer with this status and the JSON error
    /// `{"message": "injected <status>", "code": "injected_fault"}` (no body for 204 and 304).
    ///
    /// The status must be from 200 to 599.
    case status(Int)
    /// Answer 429 with `Retry-After` set to the value exactly as given (delta-seconds such as
    /// `"2"`, or an HTTP-date) and the JSON error.
    case rateLimited(retryAfter: String)
    /// Wait this long, then handle the request as usual.
    case delay(Duration)
    /// Close the TCP connection without sending a single byte of response.
    case dropConnection
}
