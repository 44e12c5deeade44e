/// The body of `POST /api/radars`: the topic to track.
public struct CreateRadarRequest: Codable, Sendable, Hashable {
    /// The topic to track; 1 to 200 characters once trimmed.
    public var topic: String
    /// Whether other users may see the radar; the server treats `nil` as `false`.
    public var isPublic: Bool?

    /// Creates a request to track a topic.
    /// - Parameters:
    ///   - topic: The topic to track.
    ///   - isPublic: Whether other users may see the radar; `nil` leaves it to the server.
    public init(topic: String, isPublic: Bool? = nil) {
        self.topic = topic
        self.isPublic = isPublic
    }
}
