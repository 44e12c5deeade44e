/// The credentials of an existing account, as the reference server's sign-in takes them from
/// the document's `UserLoginRequest`.
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
