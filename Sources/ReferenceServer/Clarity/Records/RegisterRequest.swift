/// The body of `POST /api/v1/auth/register`: the details of a new CLARITY account.
///
/// ```json
/// {"email": "ada@example.com", "password": "correct horse", "displayName": "Ada"}
/// ```
struct RegisterRequest: Codable, Sendable, Hashable {
    /// The account's email address; it must contain `@` and not be taken yet.
    var email: String
    /// The account's password: 8 to 128 characters.
    var password: String
    /// The name shown for the user, if they gave one.
    var displayName: String?

    /// Creates a registration request.
    /// - Parameters:
    ///   - email: The account's email address.
    ///   - password: The account's password, 8 to 128 characters.
    ///   - displayName: The name shown for the user; `nil` for none.
    init(email: String, password: String, displayName: String? = nil) {
        self.email = email
        self.password = password
        self.displayName = displayName
    }
}
