public import Courier
import Foundation

/// Renews an intervals.icu OAuth credential with its refresh token (RFC 6749, section 6).
///
/// intervals.icu rotates the refresh token on use: each refresh answers a new one and the old
/// one stops working. `AuthSession` runs one refresh at a time for all of a client's calls
/// and stores what it answers before any call uses it, so each refresh token is sent once.
///
/// The token endpoint is `POST /api/oauth/token` on the service's origin, with a form body
/// `grant_type=refresh_token&refresh_token=…` and, when the app has them, `client_id` and
/// `client_secret`. It answers `{"access_token", "token_type", "expires_in", "refresh_token",
/// "scope", "athlete": {"id", "name"}}`; the athlete's id becomes the credential's account, so
/// the cache partition and queued writes follow the athlete across refreshes.
public struct IntervalsOAuthAuthenticator: Authenticator {
    /// The token endpoint's path on the service's origin: `/api/oauth/token`.
    public static let tokenPath = "/api/oauth/token"

    private let client: APIClient
    private let clientID: String?
    private let clientSecret: String?

    /// Makes an authenticator.
    /// - Parameters:
    ///   - client: A client for the service without an auth session, whose base URL is the
    ///     service's origin (`https://intervals.icu`, without `/api/v1`): the token endpoint
    ///     is at ``tokenPath`` from there. ``IntervalsClient`` makes one so.
    ///   - clientID: The app's OAuth client id, sent as `client_id` when given.
    ///   - clientSecret: The app's OAuth client secret, sent as `client_secret` when given.
    public init(client: APIClient, clientID: String? = nil, clientSecret: String? = nil) {
        self.client = client
        self.clientID = clientID
        self.clientSecret = clientSecret
    }

    /// Trades the refresh token for a new pair.
    /// - Throws: `CourierError`; `CourierError.Code.unauthorized` without a refresh token, and a
    ///   4xx when the service refuses it (the athlete must sign in again).
    public func refresh(_ credential: Credential) async throws -> Credential {
        guard let refreshToken = credential.refreshToken else {
            throw CourierError(code: .unauthorized, message: "the intervals.icu credential has no refresh token")
        }
        let tokens = try await client.value(for: tokenRequest(refreshToken: refreshToken))
        return tokens.credential(issuedAt: client.configuration.clock.date, previous: credential)
    }

    /// The refresh call: an unsigned, never retried form POST (a retry could send a rotated
    /// token twice).
    func tokenRequest(refreshToken: String) -> Request<IntervalsOAuthToken> {
        var fields = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        if let clientID { fields.append(("client_id", clientID)) }
        if let clientSecret { fields.append(("client_secret", clientSecret)) }
        let form = fields.map { "\(Self.formEncoded($0.0))=\(Self.formEncoded($0.1))" }.joined(separator: "&")
        return Request(
            method: .post, path: Self.tokenPath, body: .data(Data(form.utf8), contentType: "application/x-www-form-urlencoded"),
            options: RequestOptions(requiresAuth: false, retryPolicy: RetryPolicy.none), name: "intervals.oauth.refresh"
        )
    }

    /// `application/x-www-form-urlencoded` escaping: unreserved characters stay, the rest are
    /// percent-encoded (a space too).
    static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
