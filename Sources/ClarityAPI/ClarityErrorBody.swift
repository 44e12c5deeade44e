public import Courier

/// The JSON body a CLARITY error answers with, as seed 004 reads it: every field optional.
///
/// ```json
/// {"error": "validation_failed", "message": "limit must be 1…100", "details": {"field": "limit", "max": 100}}
/// ```
///
/// Courier reads `message`, `error` and FastAPI's `detail` into
/// `CourierError.serverMessage` by itself; decode this type from
/// `CourierError.bodySnippet` when an app also wants `details`.
public struct ClarityErrorBody: Decodable, Sendable, Hashable {
    /// A short, machine-readable name for the failure, such as `validation_failed`.
    public var error: String?
    /// What went wrong, in words for people.
    public var message: String?
    /// Whatever structured context the server adds, kept as JSON.
    public var details: [String: JSONValue]?

    /// The text to show: ``message``, else ``error`` (seed 004's order).
    public var displayMessage: String? { message ?? error }

    /// Creates an error body.
    public init(error: String? = nil, message: String? = nil, details: [String: JSONValue]? = nil) {
        self.error = error
        self.message = message
        self.details = details
    }

    private enum CodingKeys: String, CodingKey { case error, message, details }

    /// Decodes every field leniently: a field of another type than expected is left `nil`
    /// rather than failing the whole body.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        error = try? container.decodeIfPresent(String.self, forKey: .error)
        message = try? container.decodeIfPresent(String.self, forKey: .message)
        details = try? container.decodeIfPresent([String: JSONValue].self, forKey: .details)
    }
}
