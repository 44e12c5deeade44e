/// What identifies a stored response: the method, the absolute URL, and the user it belongs to.
///
/// Responses are partitioned by user (``partition``, the credential's account id), so one
/// user's cached responses are never served to another.
public struct CacheKey: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The request method (GET or HEAD).
    public var method: String
    /// The absolute URL: scheme, lowercased authority, path and query.
    public var url: String
    /// The user the response belongs to; empty for responses to unsigned requests.
    public var partition: String

    /// Makes a key.
    public init(method: String, url: String, partition: String = "") {
        self.method = method
        self.url = url
        self.partition = partition
    }

    /// `METHOD url [partition]`.
    public var description: String {
        partition.isEmpty ? "\(method) \(url)" : "\(method) \(url) [\(partition)]"
    }
}
