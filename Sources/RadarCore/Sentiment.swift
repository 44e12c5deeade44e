/// The emotional tone detected in a topic's wording.
///
/// Encoded as the lowercase strings `"positive"`, `"negative"`, `"neutral"` and `"mixed"`.
public enum Sentiment: String, Codable, Sendable, Hashable, CaseIterable {
    /// The topic is worded positively.
    case positive
    /// The topic is worded negatively.
    case negative
    /// The topic carries no particular tone.
    case neutral
    /// The topic carries both positive and negative tones.
    case mixed
}
