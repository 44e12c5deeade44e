import Hummingbird

/// The per-request context of the reference server.
///
/// It keeps where the request came from (its connection), so that a fault can close the
/// connection without an answer, and the account the access token belongs to, once
/// ``AccessTokenMiddleware`` has checked it.
struct ReferenceRequestContext: RequestContext {
    /// Hummingbird's own per-request values.
    var coreContext: CoreRequestContextStorage
    /// Closes the connection the request arrived on.
    private let closeChannel: @Sendable () async -> Void
    /// The id of the user whose access token signed the request; `nil` on routes without authentication.
    var userId: String?
    /// The access token that signed the request; `nil` on routes without authentication.
    var accessToken: String?

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        let channel = source.channel
        // The channel's `close()` comes from NIOCore, which this target reaches through Hummingbird
        // without depending on it directly.
        self.closeChannel = { try? await channel.close() }
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
        await closeChannel()
    }
}
