import HTTPTypes

/// The chain stage that signs requests and renews a rejected credential once.
///
/// It runs once per attempt, after retry: each attempt is signed with the credential in
/// force. When the server rejects the credential, the stage asks the ``AuthSession`` for a
/// renewed one (one refresh shared by every request rejected with the same credential) and
/// replays the request once. A second rejection is returned as it is.
///
/// Only requests to the client's own origins are signed
/// (``RequestContext/mayCarryCredentials(_:)``); one to any other origin goes out as it is.
struct AuthStage: Middleware {
    let sessions: SessionResolver

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard context.options.requiresAuth, context.mayCarryCredentials(request), let session = try await sessions.session(for: context.options) else {
            return try await next(request, body, context)
        }
        let authenticator = session.authenticator
        let credential = try await session.credentialForRequest()
        var signed = request
        authenticator.apply(credential, to: &signed)
        context.record.noteSigningCredential(credential)
        let (response, responseBody) = try await next(signed, body, context)
        guard authenticator.isRejection(response), body?.isReplayable ?? true else {
            return (response, responseBody)
        }
        _ = await responseBody?.prefix(upTo: 64 << 10)
        let renewed = try await session.credentialAfterRejection(of: credential)
        context.record.note(.credentialRenewed)
        var replay = request
        authenticator.apply(renewed, to: &replay)
        context.record.noteSigningCredential(renewed)
        return try await next(replay, body, context)
    }
}
