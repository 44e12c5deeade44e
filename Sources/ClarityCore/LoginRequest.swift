/// The body of `POST /api/v1/auth/login`: the credentials of an existing account.
public struct LoginRequest: Codable, Sendable, Hashable {
    /// The account's email address.
    public var email: String
    /// The account's password.
    public var password: String

    /// Creates a login request.
    /// - Parameters:
    ///   - email: The account's email address.
    ///   - password: The account's password.
    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}
