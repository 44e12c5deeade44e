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
struct DedupStage: EscapingNextStage {
    struct Key: Hashable, Sendable {
        let url: String
        let fields: [Field]
        let user: String
    }

    /// A header field of a key: its canonical name and its value.
    struct Field: Hashable, Sendable, Comparable {
        let name: String
        let value: String

        static func < (lhs: Field, rhs: Field) -> Bool {
            (lhs.name, lhs.value) < (rhs.name, rhs.value)
        }
    }

    /// The request's fields but its id, sorted, so the order they were set in does not matter.
    static func fields(of request: HTTPRequest) -> [Field] {
        var fields: [Field] = []
        fields.reserveCapacity(request.headerFields.count)
        for field in request.headerFields where field.name != .requestID {
            fields.append(Field(name: field.name.canonicalName, value: field.value))
        }
        fields.sort()
        return fields
    }

    let calls = InFlightCalls<Key>()
    let auth: AuthSession?

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        escapingNext next: @escaping Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard request.method == .get, body == nil, context.options.deduplicates else {
            return try await next(request, body, context)
        }
        var known = context
        known.userPartition = await UserPartition.of(request, context: context, auth: auth)
        let context = known
        let key = Key(
            url: CacheStage.url(of: request),
            fields: Self.fields(of: request),
            user: context.userPartition ?? ""
        )
        let limit = context.options.maxResponseBytes ?? Int.max
        let shared = try await calls.join(key) {
            let (head, responseBody) = try await next(request, nil, context)
            return SharedResponse(head: head, body: try await responseBody?.collect(upTo: limit) ?? Data())
        }
        return (shared.head, HTTPBody(shared.body))
    }
}
