/// A bare confirmation from the CLARITY API, answered by logout and email verification
/// (seed 002's `MessageResponseDTO`).
///
/// ```json
/// {"message": "Email verified"}
/// ```
public struct MessageResponse: Codable, Sendable, Hashable {
    /// What the server confirms, in words for people.
    public var message: String

    /// Creates a confirmation.
    /// - Parameter message: What the server confirms.
    public init(message: String) {
        self.message = message
    }
}
