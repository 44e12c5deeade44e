/// The body of `POST /api/interpret`: a topic to interpret without creating a radar.
public struct InterpretRequest: Codable, Sendable, Hashable {
    /// The topic to interpret; must not be empty.
    public var topic: String

    /// Creates a request to interpret a topic.
    /// - Parameter topic: The topic to interpret.
    public init(topic: String) {
        self.topic = topic
    }
}
