public import Courier
import Foundation
public import HTTPTypes

/// Signs intervals.icu calls with an athlete's personal API key: HTTP Basic with the user name
/// `API_KEY` and the key as the password, as the service asks.
///
/// The key is the credential's access token. It does not expire and cannot be renewed by a
/// call: a 401 means the key was revoked or mistyped, and ``refresh(_:)`` fails with
/// `CourierError.Code.unauthorized`, so the session ends rather than retrying.
public struct IntervalsAPIKeyAuthenticator: Authenticator {
    /// The user name intervals.icu expects beside an API key: `API_KEY`.
    public static let userName = "API_KEY"

    /// Makes an authenticator.
    public init() {}

    /// Sends `Authorization: Basic base64("API_KEY:<key>")`.
    public func apply(_ credential: Credential, to request: inout HTTPRequest) {
        request.headerFields[.authorization] = Self.authorization(apiKey: credential.accessToken)
    }

    /// Fails: an API key cannot be renewed by a call.
    /// - Throws: `CourierError.Code.unauthorized`.
    public func refresh(_ credential: Credential) async throws -> Credential {
        throw CourierError(code: .unauthorized, message: "intervals.icu refused the API key; an API key cannot be renewed, make a new one in intervals.icu's settings")
    }

    /// The `Authorization` value for a key.
    static func authorization(apiKey: String) -> String {
        "Basic " + Data("\(userName):\(apiKey)".utf8).base64EncodedString()
    }
}
