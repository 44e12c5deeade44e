public import Foundation

/// A topic a user tracks, with the opinions AI models have given on it.
///
/// On the wire (seed 000), every field is present; dates are ISO 8601:
/// ```json
/// {"id": "r_1", "userId": "u_1", "topic": "Is Swift on the server ready?",
///  "interpretation": {"text": "…", "category": "technology", "subCategory": "programming",
///                     "tags": ["swift"], "sentiment": "neutral"},
///  "position": "for", "opinions": [], "lastPolledAt": "2026-01-01T10:00:00Z",
///  "refreshCount": 0, "createdAt": "2026-01-01T10:00:00Z", "updatedAt": "2026-01-01T10:00:00Z",
///  "isPublic": false}
/// ```
public struct Radar: Codable, Sendable, Hashable, Identifiable {
    /// The radar's unique identifier.
    public var id: String
    /// The identifier of the user who owns the radar.
    public var userId: String
    /// The topic being tracked, as the user wrote it.
    public var topic: String
    /// How the backend understood the topic.
    public var interpretation: Interpretation
    /// The overall stance, derived from the opinions weighted by their confidence.
    public var position: Position
    /// The opinions gathered so far.
    public var opinions: [Opinion]
    /// When the models were last asked for opinions (when the radar was created, until its
    /// first refresh).
    public var lastPolledAt: Date
    /// How many times the radar has been refreshed.
    public var refreshCount: Int
    /// When the radar was created.
    public var createdAt: Date
    /// When the radar last changed.
    public var updatedAt: Date
    /// Whether other users may see the radar.
    public var isPublic: Bool

    /// Creates a radar.
    /// - Parameters:
    ///   - id: The radar's unique identifier.
    ///   - userId: The identifier of the owning user.
    ///   - topic: The topic being tracked.
    ///   - interpretation: How the topic was understood.
    ///   - position: The overall stance.
    ///   - opinions: The opinions gathered so far.
    ///   - lastPolledAt: When the models were last asked.
    ///   - refreshCount: How many times the radar has been refreshed.
    ///   - createdAt: When the radar was created.
    ///   - updatedAt: When the radar last changed.
    ///   - isPublic: Whether other users may see the radar.
    public init(
        id: String,
        userId: String,
        topic: String,
        interpretation: Interpretation,
        position: Position = .neutral,
        opinions: [Opinion] = [],
        lastPolledAt: Date,
        refreshCount: Int = 0,
        createdAt: Date,
        updatedAt: Date,
        isPublic: Bool = false
    ) {
        self.id = id
        self.userId = userId
        self.topic = topic
        self.interpretation = interpretation
        self.position = position
        self.opinions = opinions
        self.lastPolledAt = lastPolledAt
        self.refreshCount = refreshCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.isPublic = isPublic
    }
}

extension Radar {
    /// The stance of a radar or an opinion; the document nests it as `Radar.Position`.
    public typealias Position = RadarCore.Position
}
