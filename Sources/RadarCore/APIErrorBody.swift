/// The JSON body the Radar API answers with when a request fails.
///
/// ```json
/// {"message": "radar r_9 not found", "code": "not_found"}
/// ```
public struct APIErrorBody: Codable, Sendable, Hashable {
    /// A human-readable explanation of what went wrong.
    public var message: String
    /// A stable, machine-readable error code, for example `"validation_failed"`; the document
    /// makes it optional.
    public var code: String?

    /// Creates an error body.
    /// - Parameters:
    ///   - message: A human-readable explanation.
    ///   - code: A stable, machine-readable error code.
    public init(message: String, code: String? = nil) {
        self.message = message
        self.code = code
    }
}
