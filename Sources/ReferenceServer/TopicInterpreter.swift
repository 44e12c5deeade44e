import Foundation
import RadarCore

/// Reads a topic the way the real backend's language model would, but deterministically:
/// a category from keywords, tags from the words, a sentiment from a small lexicon.
struct TopicInterpreter: Sendable {
    /// A category and the keywords that place a topic in it.
    private struct CategoryRule: Sendable {
        let category: String
        let keywords: [String]
    }

    private static let rules: [CategoryRule] = [
        CategoryRule(category: "technology", keywords: [
            "ai", "swift", "software", "app", "apps", "cloud", "crypto", "bitcoin", "robot", "robots",
            "computer", "internet", "programming", "concurrency", "llm", "chip", "chips",
        ]),
        CategoryRule(category: "health", keywords: [
            "health", "sleep", "diet", "exercise", "vaccine", "medicine", "fitness", "running", "training",
        ]),
        CategoryRule(category: "economy", keywords: [
            "economy", "inflation", "market", "markets", "stocks", "jobs", "wages", "tax", "taxes", "productivity",
            "work",
        ]),
        CategoryRule(category: "environment", keywords: [
            "climate", "nuclear", "solar", "wind", "energy", "carbon", "decarbonisation", "decarbonization",
            "emissions",
        ]),
        CategoryRule(category: "politics", keywords: [
            "election", "policy", "government", "law", "regulation", "vote", "ban",
        ]),
        CategoryRule(category: "sports", keywords: [
            "football", "soccer", "tennis", "olympics", "league", "cycling", "marathon",
        ]),
        CategoryRule(category: "science", keywords: [
            "space", "mars", "physics", "biology", "research", "quantum",
        ]),
    ]

    private static let positiveWords: Set<String> = [
        "good", "better", "best", "improve", "improves", "growth", "win", "wins", "worth", "key", "benefit",
        "benefits", "success", "progress", "safe",
    ]

    private static let negativeWords: Set<String> = [
        "bad", "worse", "worst", "risk", "risks", "crisis", "fail", "fails", "decline", "harm", "harmful",
        "ban", "danger", "dangerous", "threat", "overrated",
    ]

    private static let stopWords: Set<String> = [
        "the", "and", "for", "with", "that", "this", "will", "into", "from", "than", "are", "was", "were",
        "have", "has", "should", "would", "could", "about", "their", "there", "what", "when", "which",
    ]

    /// Interprets a topic.
    /// - Parameter topic: The topic, already trimmed and non-empty.
    /// - Returns: The same interpretation every time for the same topic.
    func interpret(_ topic: String) -> Interpretation {
        let words = Self.words(of: topic)
        let match = Self.rules.lazy.compactMap { rule in
            words.first(where: rule.keywords.contains).map { (rule.category, $0) }
        }.first
        let category = match?.0 ?? "general"
        let tags = Self.tags(from: words)
        return Interpretation(
            text: "Whether \"\(topic)\" holds (category: \(category)).",
            category: category,
            subCategory: match?.1,
            tags: tags,
            sentiment: Self.sentiment(of: words)
        )
    }

    private static func words(of topic: String) -> [String] {
        topic.lowercased()
            .components(separatedBy: CharacterSet.alphanumerics.inverted)
            .filter { !$0.isEmpty }
    }

    private static func tags(from words: [String]) -> [String] {
        var seen: Set<String> = []
        var tags: [String] = []
        for word in words where word.count >= 3 && !stopWords.contains(word) && !seen.contains(word) {
            seen.insert(word)
            tags.append(word)
            if tags.count == 5 { break }
        }
        return tags
    }

    private static func sentiment(of words: [String]) -> Sentiment {
        let positive = words.contains(where: positiveWords.contains)
        let negative = words.contains(where: negativeWords.contains)
        switch (positive, negative) {
        case (true, true): return .mixed
        case (true, false): return .positive
        case (false, true): return .negative
        case (false, false): return .neutral
        }
    }
}
