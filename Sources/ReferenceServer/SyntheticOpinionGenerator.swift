import Foundation
import RadarCore

/// Writes the opinions the "models" give on a topic.
///
/// Content depends only on the seed, the radar's id and the refresh round, so a client
/// test can rely on it; ids and dates are supplied by the caller.
struct SyntheticOpinionGenerator: Sendable {
    /// The models opinions are attributed to.
    static let models = ["gpt-4o", "claude-3.5-sonnet", "gemini-1.5-pro"]

    /// The personas that voice the opinions.
    static let authors = [
        "Pragmatic Analyst", "Skeptical Economist", "Optimistic Engineer",
        "Cautious Researcher", "Policy Watcher", "Industry Insider",
    ]

    /// The seed all content derives from.
    let seed: UInt64

    /// Opinions for one refresh round of a radar.
    /// - Parameters:
    ///   - radarId: The radar the opinions belong to.
    ///   - topic: The radar's topic, quoted in the content.
    ///   - round: The refresh round: 0 for the opinions a radar is created with.
    ///   - count: How many opinions to write.
    ///   - firstNumber: The number of the first opinion's id (`o_<number>`); the rest follow.
    ///   - createdAt: The date the opinions carry.
    /// - Returns: `count` opinions.
    func opinions(
        radarId: String,
        topic: String,
        round: Int,
        count: Int,
        firstNumber: Int,
        createdAt: Date
    ) -> [Opinion] {
        var random = SplitMix64(seed: seed, text: radarId, number: round)
        return (0..<count).map { index in
            let stance = random.pick(Position.allCases)
            let confidence = (random.nextDouble(in: 0.5...0.95) * 100).rounded() / 100
            let model = random.pick(Self.models)
            let author = random.pick(Self.authors)
            let content = random.pick(Self.contentTemplates(for: stance)).replacingOccurrences(of: "{topic}", with: topic)
            let givesReasoning = random.nextUnit() < 0.75
            let reasoning = givesReasoning ? random.pick(Self.reasoningTemplates(for: stance)) : nil
            return Opinion(
                id: "o_\(firstNumber + index)",
                radarId: radarId,
                author: author,
                model: model,
                content: content,
                stance: stance,
                confidence: confidence,
                reasoning: reasoning,
                createdAt: createdAt
            )
        }
    }

    private static func contentTemplates(for stance: Position) -> [String] {
        switch stance {
        case .for:
            return [
                "The evidence on \"{topic}\" points in its favour.",
                "I support \"{topic}\": the benefits outweigh the costs.",
                "\"{topic}\" looks like the right call on current data.",
            ]
        case .against:
            return [
                "I am not convinced by \"{topic}\".",
                "The risks of \"{topic}\" outweigh its benefits.",
                "\"{topic}\" does not hold up against the counter-evidence.",
            ]
        case .neutral:
            return [
                "\"{topic}\" has strong arguments on both sides.",
                "It is too early to take a side on \"{topic}\".",
                "Whether \"{topic}\" holds depends on assumptions that are still open.",
            ]
        }
    }

    private static func reasoningTemplates(for stance: Position) -> [String] {
        switch stance {
        case .for:
            return [
                "Recent studies and adoption figures trend upward.",
                "Practitioners report measurable gains.",
            ]
        case .against:
            return [
                "Long-term costs are under-reported.",
                "Comparable past efforts did not deliver.",
            ]
        case .neutral:
            return [
                "The data is mixed and sample sizes are small.",
                "Outcomes vary widely by context.",
            ]
        }
    }
}
