public import Courier

/// How an ``IntervalsClient`` signs its calls: with an athlete's personal API key, or with an
/// OAuth token whose refresh token rotates.
///
/// ```swift
/// let byKey = IntervalsClient(baseURL: url, transport: transport, auth: .apiKey(key))
/// let byOAuth = IntervalsClient(baseURL: url, transport: transport, auth: .oauth(store: FileCredentialStore(url: file)))
/// ```
///
/// Either way the credential sits in an `AuthSession`, so the cache partition, the offline
/// queue's account and sign-out work as for any Courier client, and the key or token is only
/// ever sent to the client's own origin.
public struct IntervalsAuth: Sendable {
    enum Kind: Sendable {
        case apiKey(String)
        case oauth(store: any CredentialStore, clientID: String?, clientSecret: String?)
    }

    let kind: Kind

    /// An athlete's personal API key, sent as HTTP Basic with the user name `API_KEY`
    /// (``IntervalsAPIKeyAuthenticator``). It is held in memory only.
    /// - Parameter key: The key, from the athlete's intervals.icu settings.
    public static func apiKey(_ key: String) -> IntervalsAuth {
        IntervalsAuth(kind: .apiKey(key))
    }

    /// An OAuth credential kept in `store`, sent as `Authorization: Bearer` and renewed with its
    /// refresh token at `POST /api/oauth/token` (``IntervalsOAuthAuthenticator``). Each rotated
    /// refresh token is saved to the store once, before any call uses the new access token.
    ///
    /// Put the first token pair in the store (or sign the client's ``IntervalsClient/session``
    /// in with it) after the app's OAuth sign-in.
    /// - Parameters:
    ///   - store: Where the credential is kept between launches.
    ///   - clientID: The app's OAuth client id, sent with refreshes when given.
    ///   - clientSecret: The app's OAuth client secret, sent with refreshes when given.
    public static func oauth(store: any CredentialStore, clientID: String? = nil, clientSecret: String? = nil) -> IntervalsAuth {
        IntervalsAuth(kind: .oauth(store: store, clientID: clientID, clientSecret: clientSecret))
    }

    /// The session that holds and renews the credential.
    /// - Parameters:
    ///   - tokenClient: An unsigned client whose base URL is the service's origin.
    ///   - clock: The clock that tells when a token expires.
    func makeSession(tokenClient: APIClient, clock: any CourierClock) -> AuthSession {
        switch kind {
        case .apiKey(let key):
            AuthSession(authenticator: IntervalsAPIKeyAuthenticator(), store: InMemoryCredentialStore(Credential(accessToken: key)), clock: clock)
        case .oauth(let store, let clientID, let clientSecret):
            AuthSession(
                authenticator: IntervalsOAuthAuthenticator(client: tokenClient, clientID: clientID, clientSecret: clientSecret),
                store: store, clock: clock
            )
        }
    }
}
