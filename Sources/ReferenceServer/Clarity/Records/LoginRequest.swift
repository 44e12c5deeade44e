/// The body of `POST /api/v1/auth/login`: the credentials of an existing account.
struct LoginRequest: Codable, Sendable, Hashable {
    /// The account's email address.
    var email: String
    /// The account's password.
    var password: String

    /// Creates a login request.
    /// - Parameters:
    ///   - email: The account's email address.
    ///   - password: The account's password.
    init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}
