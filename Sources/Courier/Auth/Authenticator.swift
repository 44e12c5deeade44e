public import HTTPTypes

/// How an API's credentials are applied and renewed.
///
/// Implement ``refresh(_:)`` for your API (for example, by calling its token endpoint with
/// the refresh token); the defaults send `Authorization: Bearer <token>`, treat 401 as a
/// rejected credential, and refresh 60 seconds before expiry. ``AuthSession`` coordinates
/// refreshes so that any number of concurrent requests cause one.
public protocol Authenticator: Sendable {
    /// Adds the credential to a request.
    /// - Parameters:
    ///   - credential: The credential.
    ///   - request: The request to sign.
    func apply(_ credential: Credential, to request: inout HTTPRequest)

    /// Obtains a new credential from the current one.
    /// - Parameter credential: The credential to renew.
    /// - Returns: The new credential.
    /// - Throws: A ``CourierError``. One with a client-error or ``CourierError/Code/unauthorized``
    ///   code means the credential cannot be renewed, and the user must sign in again;
    ///   a transport failure or server error only fails the requests waiting on it.
    func refresh(_ credential: Credential) async throws -> Credential

    /// Whether a response means the server rejected the credential.
    /// - Parameter response: The response.
    func isRejection(_ response: HTTPResponse) -> Bool

    /// How long before expiry a credential is refreshed proactively.
    var refreshMargin: Duration { get }
}

extension Authenticator {
    /// Sends `Authorization: Bearer <access token>`.
    public func apply(_ credential: Credential, to request: inout HTTPRequest) {
        request.headerFields[.authorization] = "Bearer \(credential.accessToken)"
    }

    /// A 401.
    public func isRejection(_ response: HTTPResponse) -> Bool {
        response.status.code == 401
    }

    /// 60 seconds.
    public var refreshMargin: Duration { .seconds(60) }
}
