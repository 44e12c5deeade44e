public import Foundation

/// The opinions recorded on one day of a ``Trend``.
public struct TrendPoint: Codable, Sendable, Hashable {
    /// The start of the day (UTC) the point covers.
    public var date: Date
    /// How many opinions that day were for the topic.
    public var forCount: Int
    /// How many opinions that day were against the topic.
    public var againstCount: Int
    /// How many opinions that day were neutral.
    public var neutralCount: Int
    /// How many opinions were recorded that day.
    public var totalOpinions: Int
    /// The mean confidence of that day's opinions, or 0 when there were none.
    public var averageConfidence: Double

    /// Creates a trend point.
    /// - Parameters:
    ///   - date: The start of the day the point covers.
    ///   - forCount: Opinions for the topic.
    ///   - againstCount: Opinions against the topic.
    ///   - neutralCount: Neutral opinions.
    ///   - totalOpinions: All opinions that day.
    ///   - averageConfidence: The mean confidence, or 0 when there were none.
    public init(
        date: Date,
        forCount: Int,
        againstCount: Int,
        neutralCount: Int,
        totalOpinions: Int,
        averageConfidence: Double
    ) {
        self.date = date
        self.forCount = forCount
        self.againstCount = againstCount
        self.neutralCount = neutralCount
        self.totalOpinions = totalOpinions
        self.averageConfidence = averageConfidence
    }
}
