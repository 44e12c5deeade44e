import Foundation
import HTTPTypes

/// The chain stage that follows redirects by the ``RedirectPolicy``.
///
/// It sits after authentication and before network middleware, so every hop is logged and
/// a hop to another origin loses the credential the auth stage added.
struct RedirectStage: Middleware {
    let policy: RedirectPolicy

    private static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]
    private static let credentialFields: [HTTPField.Name] = [.authorization, .proxyAuthorization, .cookie]

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        // Most responses are not redirects: they are answered here, and the hops are followed
        // in `following`, so that this frame, which every call allocates, stays small.
        let first = try await next(request, body, context)
        guard Self.redirectStatuses.contains(first.0.status.code) else { return first }
        return try await following(first, request: request, body: body, context: context, next: next)
    }

    /// Follows a redirect response, and the ones after it, while the policy allows.
    @inline(never)
    private func following(
        _ first: (HTTPResponse, HTTPBody?),
        request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        var body = body
        var hops = 0
        var (response, responseBody) = first
        while true {
            guard let follow = Self.followUp(to: request, body: body, response: response, policy: policy) else {
                return (response, responseBody)
            }
            guard hops < policy.maxRedirects else {
                _ = await responseBody?.prefix(upTo: 64 << 10)
                var error = CourierError(code: .tooManyRedirects, message: "more than \(policy.maxRedirects) redirects; the last one pointed to \(Redaction.redactedURL(follow.request))")
                error.status = response.status
                throw error
            }
            _ = await responseBody?.prefix(upTo: 64 << 10)
            let removed = Self.credentialFields.filter { request.headerFields.contains($0) && !follow.request.headerFields.contains($0) }
            context.record.note(.redirected(
                status: response.status.code, location: Redaction.redactedURL(follow.request), removedFields: removed.map(\.rawName)
            ))
            request = follow.request
            body = follow.body
            hops += 1
            (response, responseBody) = try await next(request, body, context)
        }
    }

    /// The request to send next, or `nil` when the response is not a redirect to follow.
    static func followUp(
        to request: HTTPRequest,
        body: HTTPBody?,
        response: HTTPResponse,
        policy: RedirectPolicy
    ) -> (request: HTTPRequest, body: HTTPBody?)? {
        let status = response.status.code
        guard redirectStatuses.contains(status),
              let location = response.headerFields[.location],
              let current = URL(string: "\(request.scheme ?? "http")://\(request.authority ?? "")\(request.path ?? "/")"),
              let target = URL(string: location, relativeTo: current)?.absoluteURL,
              let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let components = URLComponents(url: target, resolvingAgainstBaseURL: false),
              let host = components.host
        else { return nil }
        if request.scheme == "https" && scheme == "http" && !policy.allowsInsecureDowngrade { return nil }

        var next = request
        var nextBody = body
        let becomesGet = status == 303 && request.method != .head
            || (status == 301 || status == 302) && request.method == .post
        if becomesGet {
            next.method = .get
            nextBody = nil
            next.headerFields[.contentType] = nil
            next.headerFields[.contentLength] = nil
        } else if let body, !body.isReplayable {
            return nil
        }

        let bracketed = host.contains(":") ? "[\(host)]" : host
        next.scheme = scheme
        next.authority = components.port.map { "\(bracketed):\($0)" } ?? bracketed
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        next.path = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        if Origin(request) != Origin(next) {
            // A body never goes to another origin (OkHttp's rule): the caller gets the 3xx.
            if nextBody != nil { return nil }
            for name in credentialFields { next.headerFields[name] = nil }
        }
        return (next, nextBody)
    }
}
