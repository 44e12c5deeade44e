import Foundation
import HTTPTypes

/// The origins a client sends credentials to: its base URL's and those the app lists in
/// ``ClientConfiguration/credentialOrigins``. Made once per client and shared by every call's
/// ``RequestContext``.
///
/// `Sendable`: a `final class` whose stored properties are immutable and `Sendable`.
final class CredentialScope: Sendable {
    /// Every origin that may receive credentials.
    let origins: Set<Origin>
    /// The base URL's scheme and authority as requests carry them, for a check without parsing
    /// in the common case (a request to the base URL's own server).
    private let baseScheme: String
    private let baseAuthority: String

    /// Makes the scope of a client.
    /// - Parameters:
    ///   - baseURL: The client's base URL.
    ///   - additional: The other origins the app lists.
    init(baseURL: URL, additional: [URL]) {
        var origins = Set(additional.compactMap(Origin.init))
        if let base = Origin(baseURL) { origins.insert(base) }
        self.origins = origins
        let target = RequestTarget.Base(baseURL)
        self.baseScheme = target.scheme
        self.baseAuthority = target.authority
    }

    /// Whether a request may carry the client's credentials.
    func allows(_ request: HTTPRequest) -> Bool {
        if !baseAuthority.isEmpty, request.authority == baseAuthority, request.scheme == baseScheme { return true }
        guard let origin = Origin(request) else { return false }
        return origins.contains(origin)
    }
}
