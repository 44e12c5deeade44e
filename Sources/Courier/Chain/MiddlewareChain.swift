import HTTPTypes
import Synchronization

/// The chain of middleware and transport, folded into one function when the client is made.
struct MiddlewareChain: Sendable {
    /// The entry point: the first application middleware, or the transport when there is none.
    let entry: Middleware.Next

    /// Folds the tiers into one function, in the order ``Middleware`` documents, leaving out
    /// middleware that pass every call straight on (``Middleware/passesEveryCallOn``).
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
        for middleware in network.reversed() where !middleware.passesEveryCallOn {
            next = Self.link(middleware, to: next, callsNextExactlyOnce: true)
        }
        for middleware in (application + stages).reversed() where !middleware.passesEveryCallOn {
            next = Self.link(middleware, to: next, callsNextExactlyOnce: false)
        }
        self.entry = next
    }

    /// Links one middleware to the rest of the chain, by one rule for every middleware, built
    /// in or not; network middleware are held to calling `next` exactly once.
    private static func link(
        _ middleware: any Middleware,
        to next: @escaping Middleware.Next,
        callsNextExactlyOnce: Bool
    ) -> Middleware.Next {
        guard callsNextExactlyOnce else {
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

/// Counts how often a network middleware called `next` during one attempt.
private final class NextCallCounter: Sendable {
    private let calls = Atomic<Int>(0)

    /// Adds one call and returns the new count.
    func increment() -> Int { calls.add(1, ordering: .relaxed).newValue }

    /// The calls so far.
    var count: Int { calls.load(ordering: .relaxed) }
}
