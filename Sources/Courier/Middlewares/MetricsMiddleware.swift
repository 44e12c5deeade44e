public import HTTPTypes
public import Metrics

/// Records swift-metrics for each call: a counter of outcomes and a timer per endpoint.
///
/// - `courier_requests_total`, dimensions `endpoint`, `method` and `outcome` (`2xx`…`5xx`,
///   or the ``CourierError/Code`` of a failure);
/// - `courier_request_duration`, dimensions `endpoint` and `method`: time to the response head.
///
/// Part of the default application middleware. With no metrics backend bootstrapped,
/// swift-metrics discards the values at almost no cost.
public struct MetricsMiddleware: Middleware {
    /// The counter's label.
    public static let counterLabel = "courier_requests_total"
    /// The timer's label.
    public static let timerLabel = "courier_request_duration"

    private let factory: (any MetricsFactory)?

    /// Makes the middleware.
    /// - Parameter factory: The metrics backend; `nil` uses the one bootstrapped for the process.
    public init(factory: (any MetricsFactory)? = nil) {
        self.factory = factory
    }

    /// Times the call and counts its outcome.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let started = ContinuousClock.now
        let dimensions = [("endpoint", context.endpoint), ("method", request.method.rawValue)]
        do {
            let result = try await next(request, body, context)
            record(outcome: "\(result.0.status.code / 100)xx", dimensions: dimensions, since: started)
            return result
        } catch {
            let outcome = (error as? CourierError)?.code.description ?? "error"
            record(outcome: outcome, dimensions: dimensions, since: started)
            throw error
        }
    }

    private func record(outcome: String, dimensions: [(String, String)], since started: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - started
        if let factory {
            Counter(label: Self.counterLabel, dimensions: dimensions + [("outcome", outcome)], factory: factory).increment()
            Timer(label: Self.timerLabel, dimensions: dimensions, factory: factory).record(duration: elapsed)
        } else {
            Counter(label: Self.counterLabel, dimensions: dimensions + [("outcome", outcome)]).increment()
            Timer(label: Self.timerLabel, dimensions: dimensions).record(duration: elapsed)
        }
    }
}
