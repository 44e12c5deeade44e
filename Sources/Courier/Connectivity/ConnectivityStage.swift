import HTTPTypes

/// The chain stage, below redirects and above request-body compression, the attempt's span and
/// network middleware, that tells the
/// ``ConnectivityMonitor`` about every attempt, and waits for connectivity when a request asks
/// to (``RequestOptions/connectivityWait``) and the monitor says offline.
struct ConnectivityStage: Middleware {
    let monitor: ConnectivityMonitor
    /// The wait for requests that set none (``ClientConfiguration/connectivityWait``).
    let defaultWait: Duration?

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if let wait = context.options.connectivityWait ?? defaultWait, !monitor.status.isReachable {
            _ = await monitor.waitUntilReachable(limit: wait)
        }
        do {
            let result = try await next(request, body, context)
            monitor.report(.requestSucceeded)
            return result
        } catch let error as CourierError where Self.unreachable.contains(error.code) {
            monitor.report(.requestUnreachable)
            throw error
        }
    }

    /// Failures that mean the server could not be reached at all.
    static let unreachable: Set<CourierError.Code> = [.offline, .cannotConnect]
}
