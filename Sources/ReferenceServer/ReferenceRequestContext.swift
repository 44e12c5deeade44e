import Hummingbird
import NIOCore

/// The per-request context of the reference server.
///
/// It keeps where the request came from (its connection), so that a fault can close the
/// connection without an answer, and the account the access token belongs to, once
/// ``AccessTokenMiddleware`` has checked it.
struct ReferenceRequestContext: RequestContext {
    /// Hummingbird's own per-request values.
    var coreContext: CoreRequestContextStorage
    /// The channel the request arrived on: the connection on HTTP/1.1, the request's stream
    /// (whose parent is the connection) on HTTP/2.
    let channel: any Channel
    /// The id of the user whose access token signed the request; `nil` on routes without authentication.
    var userId: String?
    /// The access token that signed the request; `nil` on routes without authentication.
    var accessToken: String?

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }

    /// The authenticated user's id.
    /// - Throws: ``APIError`` 401 when the route was reached without authentication, which
    ///   would be a wiring mistake in the router.
    func requireUserId() throws -> String {
        guard let userId else { throw APIError.unauthorized("missing bearer token") }
        return userId
    }

    /// Closes the request's connection at once: the client receives no response at all.
    func closeConnection() async {
        // On HTTP/2 a stream's close is a reset of that stream alone: the connection is its parent.
        try? await HTTP2Stream.connection(of: channel).close()
    }
}
