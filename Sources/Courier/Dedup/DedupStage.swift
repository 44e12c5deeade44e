import Foundation
import HTTPTypes

/// The chain stage that lets identical GETs in flight share one call.
///
/// Two GETs are identical when they have the same URL, the same header fields (the request
/// id aside) and the same signed-in user. The first runs the call in its own task (so an
/// uncontended GET pays almost nothing); the others wait for its response, whose body is read
/// once and handed to each of them. An error reaches every waiter. A waiter that is cancelled
/// leaves without disturbing the others; if it was the one running the call, the call is
/// handed to a new task for those still waiting (one more request to the server, and no
/// failure for them). When every waiter has left, the call is cancelled.
struct DedupStage: Middleware {
    let calls = InFlightCalls<DedupKey>()
    let auth: SessionResolver
    /// The client's credential digest: the cache's when it has one, so the user partition
    /// worked out here is the one the cache looks up.
    let digest: CredentialDigest

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: @escaping Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard request.method == .get, body == nil, context.options.deduplicates else {
            return try await next(request, body, context)
        }
        let context = await Self.withUserPartition(context, request: request, auth: auth, digest: digest)
        let key = DedupKey(request, user: context.userPartition ?? UserPartition.withoutSession(request, digest: digest))
        let limit = context.options.maxResponseBytes ?? Int.max
        let shared = try await calls.join(
            key,
            following: { context.record.note(.joinedCallInFlight) },
            run: { try await Self.fetch(request, context: context, limit: limit, next: next) },
            restart: { { try await Self.fetch(request, context: context, limit: limit, next: next) } }
        )
        return (shared.head, HTTPBody(shared.body))
    }

    /// Runs the call and reads its body, to be shared by every waiter.
    private static func fetch(_ request: HTTPRequest, context: RequestContext, limit: Int, next: Next) async throws -> SharedResponse {
        let (head, responseBody) = try await next(request, nil, context)
        if let responseBody, let buffered = try responseBody.collectedIfBuffered(upTo: limit) {
            return SharedResponse(head: head, body: buffered)
        }
        return SharedResponse(head: head, body: try await responseBody?.collect(upTo: limit) ?? Data())
    }

    /// The context with the call's user partition, worked out once for the stages below
    /// when it needs the session; without a session it is cheap to work out again, so the
    /// context is passed on as it is (no copy).
    private static func withUserPartition(_ context: RequestContext, request: HTTPRequest, auth: SessionResolver, digest: CredentialDigest) async -> RequestContext {
        guard context.userPartition == nil, !auth.isEmpty else { return context }
        var known = context
        known.userPartition = await UserPartition.of(request, context: context, auth: auth, digest: digest)
        return known
    }
}
