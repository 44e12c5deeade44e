public import HTTPTypes
public import Metrics
import Synchronization

/// Records swift-metrics for each call: a counter of outcomes and a timer per endpoint.
///
/// - `courier_requests_total`, dimensions `endpoint`, `method` and `outcome` (`2xx`…`5xx`,
///   or the ``CourierError/Code`` of a failure);
/// - `courier_request_duration`, dimensions `endpoint` and `method`: time to the response head;
/// - `courier_response_body_bytes`, dimensions `endpoint` and `kind`: response body bytes as
///   read (`decoded`) and, for a compressed body whose transport counted them, as they came on
///   the wire (`wire`), recorded once the body has been read.
///
/// Part of the default application middleware. The middleware takes its factory when it is
/// made, and keeps the handles it makes, one per endpoint, method and outcome, so bootstrap
/// `MetricsSystem` before making clients (as swift-metrics asks) or pass a `factory`. With
/// no backend bootstrapped by then, there is nothing to record: the middleware passes calls
/// straight on (``recordsNothing``).
public struct MetricsMiddleware: Middleware {
    /// The counter's label.
    public static let counterLabel = "courier_requests_total"
    /// The timer's label.
    public static let timerLabel = "courier_request_duration"
    /// The body-bytes counter's label.
    public static let bodyBytesLabel = "courier_response_body_bytes"

    private let factory: any MetricsFactory
    private let handles = MetricHandles()
    private let byteCounters = BodyByteCounters()

    /// Whether the factory is swift-metrics' no-op one (no backend was bootstrapped when the
    /// middleware was made), so that calls go straight on, untimed.
    public let recordsNothing: Bool

    /// Makes the middleware.
    /// - Parameter factory: The factory that makes the counters and timers; by default,
    ///   the one bootstrapped in `MetricsSystem` at the time the middleware is made.
    public init(factory: (any MetricsFactory)? = nil) {
        let factory = factory ?? MetricsSystem.factory
        self.factory = factory
        self.recordsNothing = factory is NOOPMetricsHandler
    }

    /// ``recordsNothing``: with no metrics backend, the client leaves this middleware out of
    /// its chain.
    public var passesEveryCallOn: Bool { recordsNothing }

    /// Times the call and counts its outcome.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if recordsNothing { return try await next(request, body, context) }
        return try await timed(request, body: body, context: context, next: next)
    }

    /// Sends the call on, and records its time, outcome and body size. A function of its own,
    /// so that a client without a metrics backend allocates no frame for this work.
    @inline(never)
    private func timed(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let started = ContinuousClock.now
        do {
            let result = try await next(request, body, context)
            record(outcome: Self.statusClass(result.0.status.code), request: request, context: context, since: started)
            guard let responseBody = result.1 else { return result }
            if let data = responseBody.bufferedData {
                recordBodyBytes(data.count, context: context)
                return result
            }
            let counted = BodySizeCounter(base: responseBody) { [self] count in recordBodyBytes(count, context: context) }
            return (result.0, HTTPBody(counted, length: responseBody.length, iterationBehavior: responseBody.iterationBehavior))
        } catch {
            let outcome = (error as? CourierError)?.code.description ?? "error"
            record(outcome: outcome, request: request, context: context, since: started)
            throw error
        }
    }

    private func recordBodyBytes(_ count: Int, context: RequestContext) {
        let endpoint = context.endpoint
        let (decoded, wire) = byteCounters.counters(endpoint: endpoint) {
            (Counter(label: Self.bodyBytesLabel, dimensions: [("endpoint", endpoint), ("kind", "decoded")], factory: factory),
             Counter(label: Self.bodyBytesLabel, dimensions: [("endpoint", endpoint), ("kind", "wire")], factory: factory))
        }
        decoded.increment(by: count)
        if let encoded = context.record.encodedBodyBytes { wire.increment(by: encoded) }
    }

    private static let statusClasses = ["1xx", "2xx", "3xx", "4xx", "5xx"]

    /// `2xx` and its siblings, without formatting a string per call.
    private static func statusClass(_ code: Int) -> String {
        let index = code / 100 - 1
        return statusClasses.indices.contains(index) ? statusClasses[index] : "\(code / 100)xx"
    }

    private func record(outcome: String, request: HTTPRequest, context: RequestContext, since started: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - started
        let endpoint = context.endpoint
        let method = request.method.rawValue
        let (counter, timer) = handles.handles(endpoint: endpoint, method: method, outcome: outcome) {
            let dimensions = [("endpoint", endpoint), ("method", method)]
            return (Counter(label: Self.counterLabel, dimensions: dimensions + [("outcome", outcome)], factory: factory),
                    Timer(label: Self.timerLabel, dimensions: dimensions, factory: factory))
        }
        counter.increment()
        timer.record(duration: elapsed)
    }
}

/// The counters and timers a ``MetricsMiddleware`` made, kept by endpoint, method and outcome
/// so a call does not ask the metrics factory for new handles (which takes the factory's lock
/// and allocates). At most ``limit`` are kept; past that, handles are made per call.
///
/// A `final class` whose dictionary sits in a `Mutex`, which makes it `Sendable`.
final class MetricHandles: Sendable {
    private struct Key: Hashable {
        let endpoint: String
        let method: String
        let outcome: String
    }

    static let limit = 1_024
    private let cache = Mutex<[Key: (Counter, Timer)]>([:])

    func handles(endpoint: String, method: String, outcome: String, make: () -> (Counter, Timer)) -> (Counter, Timer) {
        let key = Key(endpoint: endpoint, method: method, outcome: outcome)
        if let cached = cache.withLock({ $0[key] }) { return cached }
        let made = make()
        cache.withLock { cache in
            if cache.count < Self.limit { cache[key] = made }
        }
        return made
    }
}

/// The body-bytes counters a ``MetricsMiddleware`` made, by endpoint (at most
/// ``MetricHandles/limit``; past that, counters are made per call).
///
/// A `final class` whose dictionary sits in a `Mutex`, which makes it `Sendable`.
final class BodyByteCounters: Sendable {
    private let cache = Mutex<[String: (decoded: Counter, wire: Counter)]>([:])

    func counters(endpoint: String, make: () -> (Counter, Counter)) -> (decoded: Counter, wire: Counter) {
        if let cached = cache.withLock({ $0[endpoint] }) { return cached }
        let made = make()
        cache.withLock { cache in
            if cache.count < MetricHandles.limit { cache[endpoint] = made }
        }
        return made
    }
}
