/// The stance a radar, or a single opinion, takes on a topic.
///
/// Encoded as the lowercase strings `"for"`, `"against"` and `"neutral"`. The document nests
/// it in ``Radar`` (`Radar.Position`), which is an alias of this type.
public enum Position: String, Codable, Sendable, Hashable, CaseIterable {
    /// In favour of the topic.
    case `for`
    /// Opposed to the topic.
    case against
    /// Neither for nor against, or undecided.
    case neutral

    /// The name shown to people: `For`, `Against` or `Neutral`.
    public var displayName: String {
        switch self {
        case .for: "For"
        case .against: "Against"
        case .neutral: "Neutral"
        }
    }

    /// The colour the app shows the stance in, by name: `green`, `red` or `gray`.
    public var color: String {
        switch self {
        case .for: "green"
        case .against: "red"
        case .neutral: "gray"
        }
    }
}
