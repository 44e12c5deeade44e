public import HTTPTypes

/// A step in the chain between the client and the transport.
///
/// Every call passes through one chain, built once when the ``APIClient`` is made, in
/// this fixed order:
///
/// 1. The call's span, when a tracer is in use (``ClientConfiguration/tracer``), then
///    **application middleware** (``ClientConfiguration/middleware``): runs once per call.
///    It may short-circuit (answer without calling `next`) or call `next` more than once.
/// 2. Built-in stages, in this order: dedup of identical GETs in flight
///    (``ClientConfiguration/deduplicatesRequests``), the cache (``ClientConfiguration/cache``),
///    the offline queue (``ClientConfiguration/offlineQueue``), retry
///    (``ClientConfiguration/retryPolicy``), authentication (``ClientConfiguration/auth``),
///    redirects (``ClientConfiguration/redirectPolicy``), connectivity
///    (``ClientConfiguration/connectivity``), the compression of request bodies that ask for
///    it (``ClientConfiguration/requestBodyCompressor``), and each attempt's span (with the
///    tracer's propagation fields injected).
/// 3. **Network middleware** (``ClientConfiguration/networkMiddleware``): runs once per
///    attempt, so it sees retries and replays one by one. It must call `next` exactly once;
///    the chain throws ``CourierError/Code/invalidRequest`` when it does not.
/// 4. The ``Transport``.
///
/// Middleware see swift-http-types values, never an engine's types.
///
/// ```swift
/// struct TraceHeader: Middleware {
///     func intercept(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext,
///                    next: Next) async throws -> (HTTPResponse, HTTPBody?) {
///         var request = request
///         request.headerFields[.init("X-Trace")!] = context.requestID
///         return try await next(request, body, context)
///     }
/// }
/// ```
public protocol Middleware: Sendable {
    /// Passes a request to the rest of the chain.
    typealias Next = @Sendable (HTTPRequest, HTTPBody?, RequestContext) async throws -> (HTTPResponse, HTTPBody?)

    /// Handles one request.
    /// - Parameters:
    ///   - request: The request so far.
    ///   - body: Its body, if any. Pass a single-use body on at most once.
    ///   - context: Per-call information shared by every step.
    ///   - next: The rest of the chain. It is escaping, so a middleware may keep it for work
    ///     that outlives the call (the cache's background revalidation does); most never need
    ///     to, and may declare the parameter as a plain `Next`.
    /// - Returns: The response for this request.
    /// - Throws: Any error; the client reports it as a ``CourierError``.
    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: @escaping Next
    ) async throws -> (HTTPResponse, HTTPBody?)

    /// Whether this middleware, as configured, passes every call straight on, unchanged (a
    /// ``MetricsMiddleware`` with no metrics backend does). The client leaves such a
    /// middleware out of its chain when it builds it, so a call spends nothing on it.
    /// `false` unless a middleware says otherwise; it must not change after the middleware
    /// is made.
    var passesEveryCallOn: Bool { get }
}

extension Middleware {
    /// `false`: a middleware takes part in every call unless it says otherwise.
    public var passesEveryCallOn: Bool { false }
}

/// A middleware made from a closure, for one-off hooks.
///
/// ```swift
/// let stamp = ClosureMiddleware { request, body, context, next in
///     var request = request
///     request.headerFields[.init("X-App-Version")!] = "1.4"
///     return try await next(request, body, context)
/// }
/// ```
public struct ClosureMiddleware: Middleware {
    private let handler: @Sendable (HTTPRequest, HTTPBody?, RequestContext, Next) async throws -> (HTTPResponse, HTTPBody?)

    /// Makes a middleware from a closure with the same shape as ``Middleware/intercept(_:body:context:next:)``.
    /// - Parameter handler: The closure.
    public init(
        _ handler: @escaping @Sendable (HTTPRequest, HTTPBody?, RequestContext, Next) async throws -> (HTTPResponse, HTTPBody?)
    ) {
        self.handler = handler
    }

    /// Calls the closure.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await handler(request, body, context, next)
    }
}
