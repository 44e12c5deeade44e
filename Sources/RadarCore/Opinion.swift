public import Foundation

/// One AI model's opinion on a radar's topic.
public struct Opinion: Codable, Sendable, Hashable, Identifiable {
    /// The opinion's unique identifier.
    public var id: String
    /// The identifier of the ``Radar`` this opinion belongs to.
    public var radarId: String
    /// A display name for whoever voiced the opinion.
    public var author: String
    /// The model that produced the opinion, for example `"gpt-4o"`.
    public var model: String
    /// The opinion itself, in prose.
    public var content: String
    /// Whether the opinion is for, against or neutral on the topic.
    public var stance: Position
    /// How sure the model is of its stance, from 0 to 1.
    public var confidence: Double
    /// Why the model took its stance, when it said so.
    public var reasoning: String?
    /// When the opinion was recorded.
    public var createdAt: Date

    /// Creates an opinion.
    /// - Parameters:
    ///   - id: The opinion's unique identifier.
    ///   - radarId: The identifier of the radar it belongs to.
    ///   - author: A display name for whoever voiced it.
    ///   - model: The model that produced it.
    ///   - content: The opinion in prose.
    ///   - stance: Its stance on the topic.
    ///   - confidence: How sure the model is, from 0 to 1.
    ///   - reasoning: Why the model took its stance, if known.
    ///   - createdAt: When the opinion was recorded.
    public init(
        id: String,
        radarId: String,
        author: String,
        model: String,
        content: String,
        stance: Position,
        confidence: Double,
        reasoning: String? = nil,
        createdAt: Date
    ) {
        self.id = id
        self.radarId = radarId
        self.author = author
        self.model = model
        self.content = content
        self.stance = stance
        self.confidence = confidence
        self.reasoning = reasoning
        self.createdAt = createdAt
    }
}
