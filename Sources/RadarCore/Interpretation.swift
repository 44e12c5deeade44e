/// How the backend understood a radar's topic: a summary, a category and tags.
public struct Interpretation: Codable, Sendable, Hashable {
    /// A one-sentence reading of the topic.
    public var text: String
    /// The broad category the topic belongs to, for example `"technology"`.
    public var category: String
    /// A narrower category inside ``category``, when one was recognised.
    public var subCategory: String?
    /// Keywords drawn from the topic.
    public var tags: [String]
    /// The tone of the topic's wording.
    public var sentiment: Sentiment

    /// Creates an interpretation.
    /// - Parameters:
    ///   - text: A one-sentence reading of the topic.
    ///   - category: The broad category the topic belongs to.
    ///   - subCategory: A narrower category, if one was recognised.
    ///   - tags: Keywords drawn from the topic.
    ///   - sentiment: The tone of the topic's wording.
    public init(
        text: String,
        category: String,
        subCategory: String? = nil,
        tags: [String] = [],
        sentiment: Sentiment = .neutral
    ) {
        self.text = text
        self.category = category
        self.subCategory = subCategory
        self.tags = tags
        self.sentiment = sentiment
    }
}
