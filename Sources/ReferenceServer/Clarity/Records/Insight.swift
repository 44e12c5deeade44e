import Foundation

/// What to write an insight about (from `POST /api/v1/insights/`'s `InsightGenerationRequest`):
/// a finished analysis by id, or results the caller already has.
struct InsightRequest: Codable, Sendable, Hashable {
    /// A completed analysis of the user's, by its ``AnalysisResponse/processingId``.
    var analysisId: String?
    /// Results to use instead of a stored analysis.
    var analysisResults: ActigraphyAnalysis?
    /// What the insight should focus on.
    var insightType: InsightType
    /// Whether to add recommendations.
    var includeRecommendations: Bool
    /// Free text the user added, such as "training for a marathon".
    var context: String?

    /// Makes a request; give `analysisId` or `analysisResults`.
    init(
        analysisId: String? = nil, analysisResults: ActigraphyAnalysis? = nil,
        insightType: InsightType = .comprehensive, includeRecommendations: Bool = true, context: String? = nil
    ) {
        self.analysisId = analysisId
        self.analysisResults = analysisResults
        self.insightType = insightType
        self.includeRecommendations = includeRecommendations
        self.context = context
    }
}

/// What an insight focuses on.
enum InsightType: String, Codable, Sendable, Hashable, CaseIterable {
    /// Sleep, activity and rhythm together.
    case comprehensive
    /// Sleep only.
    case sleep
    /// Activity only.
    case activity
    /// Daily rhythm only.
    case circadian
}

/// A generated health insight: a narrative with its key points and recommendations.
///
/// An insight never changes once generated; the server marks it cacheable for a day.
struct Insight: Codable, Sendable, Hashable, Identifiable {
    /// The insight's id.
    var insightId: String
    /// Whose insight it is.
    var userId: String
    /// Its focus.
    var insightType: InsightType
    /// A few sentences for the user.
    var narrative: String
    /// The main findings, one line each.
    var keyInsights: [String]
    /// What to try, one line each; empty when not asked for.
    var recommendations: [String]
    /// How sure the service is (0–1).
    var confidenceScore: Double
    /// The analysis it was written from, if any.
    var sourceAnalysisId: String?
    /// When it was generated.
    var generatedAt: Date

    /// The insight's id.
    var id: String { insightId }

    /// Makes an insight.
    init(
        insightId: String, userId: String, insightType: InsightType, narrative: String, keyInsights: [String],
        recommendations: [String], confidenceScore: Double, sourceAnalysisId: String?, generatedAt: Date
    ) {
        self.insightId = insightId
        self.userId = userId
        self.insightType = insightType
        self.narrative = narrative
        self.keyInsights = keyInsights
        self.recommendations = recommendations
        self.confidenceScore = confidenceScore
        self.sourceAnalysisId = sourceAnalysisId
        self.generatedAt = generatedAt
    }
}

/// One page of a user's insights, newest first
/// (`GET /api/v1/insights/history/{userId}?limit&offset`).
struct InsightHistoryPage: Codable, Sendable, Hashable {
    /// The insights on this page.
    var insights: [Insight]
    /// How many insights the user has in all.
    var totalCount: Int
    /// The page size asked for.
    var limit: Int
    /// How many insights were skipped.
    var offset: Int
    /// Whether more follow.
    var hasMore: Bool

    /// Makes a page.
    init(insights: [Insight], totalCount: Int, limit: Int, offset: Int, hasMore: Bool) {
        self.insights = insights
        self.totalCount = totalCount
        self.limit = limit
        self.offset = offset
        self.hasMore = hasMore
    }
}
