/// The stance a radar, or a single opinion, takes on a topic.
///
/// Encoded as the lowercase strings `"for"`, `"against"` and `"neutral"`.
public enum Position: String, Codable, Sendable, Hashable, CaseIterable {
    /// In favour of the topic.
    case `for`
    /// Opposed to the topic.
    case against
    /// Neither for nor against, or undecided.
    case neutral
}
