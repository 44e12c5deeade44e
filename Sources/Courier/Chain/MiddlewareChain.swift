import HTTPTypes
import Synchronization

/// The chain of middleware and transport, folded into one function when the client is made.
struct MiddlewareChain: Sendable {
    /// The entry point: the first application middleware, or the transport when there is none.
    let entry: Middleware.Next

    /// Folds the tiers into one function, in the order ``Middleware`` documents.
    init(
        application: [any Middleware],
        stages: [any Middleware],
        network: [any Middleware],
        transport: any Transport
    ) {
        var next: Middleware.Next = { request, body, context in
            context.record.countTransportCall()
            context.record.noteSent(request)
            return try await transport.send(request, body: body, context: context)
        }
        for middleware in network.reversed() {
            next = Self.link(middleware, to: next, callsNextExactlyOnce: true)
        }
        for middleware in (application + stages).reversed() {
            next = Self.link(middleware, to: next, callsNextExactlyOnce: false)
        }
        self.entry = next
    }

    private static func link(
        _ middleware: any Middleware,
        to next: @escaping Middleware.Next,
        callsNextExactlyOnce: Bool
    ) -> Middleware.Next {
        // The built-in stages every call goes through are called as their own types: the
        // call skips the protocol's witness, an async frame of its own on every call.
        if let stage = middleware as? DedupStage { return directEscaping(stage, to: next) }
        if let stage = middleware as? any EscapingNextStage { return directEscaping(stage, to: next) }
        guard callsNextExactlyOnce else {
            if let stage = middleware as? RetryStage { return direct(stage, to: next) }
            if let stage = middleware as? RedirectStage { return direct(stage, to: next) }
            if let metrics = middleware as? MetricsMiddleware { return metrics.recordsNothing ? next : direct(metrics, to: next) }
            return { request, body, context in
                try await middleware.intercept(request, body: body, context: context, next: next)
            }
        }
        return { request, body, context in
            let calls = NextCallCounter()
            let response = try await middleware.intercept(request, body: body, context: context) { request, body, context in
                guard calls.increment() == 1 else {
                    throw CourierError(
                        code: .invalidRequest,
                        message: "network middleware \(type(of: middleware)) called next more than once"
                    )
                }
                return try await next(request, body, context)
            }
            guard calls.count == 1 else {
                throw CourierError(
                    code: .invalidRequest,
                    message: "network middleware \(type(of: middleware)) answered without calling next"
                )
            }
            return response
        }
    }
}

extension MiddlewareChain {
    /// Links a middleware of a type known here; specialized for each, so the closure calls
    /// the type's own `intercept`.
    private static func direct<Stage: Middleware>(_ stage: Stage, to next: @escaping Middleware.Next) -> Middleware.Next {
        { request, body, context in
            try await stage.intercept(request, body: body, context: context, next: next)
        }
    }

    /// Links a stage that may keep `next` after it returns, handing it the escaping `next`.
    private static func directEscaping<Stage: EscapingNextStage>(_ stage: Stage, to next: @escaping Middleware.Next) -> Middleware.Next {
        { request, body, context in
            try await stage.intercept(request, body: body, context: context, escapingNext: next)
        }
    }
}

/// Counts how often a network middleware called `next` during one attempt.
private final class NextCallCounter: Sendable {
    private let calls = Atomic<Int>(0)

    /// Adds one call and returns the new count.
    func increment() -> Int { calls.add(1, ordering: .relaxed).newValue }

    /// The calls so far.
    var count: Int { calls.load(ordering: .relaxed) }
}

/// A built-in stage that may keep `next` after it returns (the cache's background refresh).
/// The chain hands such a stage an escaping `next`; user middleware never needs one.
protocol EscapingNextStage: Middleware {
    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        escapingNext next: @escaping Next
    ) async throws -> (HTTPResponse, HTTPBody?)
}

extension EscapingNextStage {
    /// The chain always calls the escaping variant; this one exists only to satisfy ``Middleware``.
    func intercept(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: Next) async throws -> (HTTPResponse, HTTPBody?) {
        throw CourierError(code: .invalidRequest, message: "\(Self.self) runs only inside the client's chain")
    }
}
