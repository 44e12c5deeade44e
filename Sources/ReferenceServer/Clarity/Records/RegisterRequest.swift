/// The details of a new account, as the reference server's sign-up takes them from the
/// document's `UserRegister`.
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
