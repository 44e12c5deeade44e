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
    /// Close the TCP connection without sending a single byte of response (on HTTP/2, the
    /// whole connection the request's stream belongs to, every other stream on it included).
    case dropConnection
    /// On HTTP/2, reset the request's stream with `REFUSED_STREAM` before anything handles it:
    /// the server says it did not process the request, so any client may send it again. Over
    /// HTTP/1.1, which has no streams, the connection is closed, as ``dropConnection``.
    case refuseStream
}
