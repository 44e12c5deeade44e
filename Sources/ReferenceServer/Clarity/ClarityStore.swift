import Foundation

/// The CLARITY analyses and insights the server holds, per user, in memory.
actor ClarityStore {
    private struct StoredAnalysis {
        let ownerId: String
        var response: AnalysisResponse
        let readyAt: Date
        let results: ActigraphyAnalysis
    }

    private let actigraphy: ActigraphySynthesizer
    private let insightWriter = InsightSynthesizer()
    private let processingTime: TimeInterval
    private var analyses: [String: StoredAnalysis] = [:]
    private var insights: [String: Insight] = [:]
    /// Each user's insight ids, oldest first.
    private var insightsByUser: [String: [String]] = [:]
    private var nextAnalysis = 1
    private var nextInsight = 1

    init(seed: UInt64, analysisProcessingTime: Duration) {
        actigraphy = ActigraphySynthesizer(seed: seed)
        processingTime = analysisProcessingTime.timeInterval
    }

    /// Submits samples for analysis and returns the analysis as it stands.
    func submit(values: [Double], samplesPerMinute: Double, kind: AnalysisKind, ownerId: String, at now: Date) -> AnalysisResponse {
        let id = "pat_\(nextAnalysis)"
        nextAnalysis += 1
        let results = actigraphy.analyse(values, samplesPerMinute: samplesPerMinute)
        let response = AnalysisResponse(processingId: id, status: .processing, kind: kind, createdAt: Self.whole(now))
        analyses[id] = StoredAnalysis(ownerId: ownerId, response: response, readyAt: now.addingTimeInterval(processingTime), results: results)
        return analysis(id: id, ownerId: ownerId, at: now) ?? response
    }

    /// One of the user's analyses, completed if its processing time has passed.
    func analysis(id: String, ownerId: String, at now: Date) -> AnalysisResponse? {
        guard var stored = analyses[id], stored.ownerId == ownerId else { return nil }
        if stored.response.status == .processing, now >= stored.readyAt {
            stored.response.status = .completed
            stored.response.completedAt = Self.whole(max(now, stored.readyAt))
            stored.response.analysis = stored.results
            analyses[id] = stored
        }
        return stored.response
    }

    /// Makes every analysis still processing ready now.
    func finishProcessing() {
        let now = Date()
        for (id, stored) in analyses where stored.response.status == .processing {
            analyses[id] = StoredAnalysis(ownerId: stored.ownerId, response: stored.response, readyAt: now, results: stored.results)
        }
    }

    /// How many analyses have completed, for the health route.
    var completedAnalyses: Int {
        analyses.values.filter { $0.response.status == .completed }.count
    }

    /// Writes an insight for the user and keeps it.
    func generateInsight(
        from analysis: ActigraphyAnalysis, sourceAnalysisId: String?, request: InsightRequest, ownerId: String, at now: Date
    ) -> Insight {
        let id = "ins_\(nextInsight)"
        nextInsight += 1
        let text = insightWriter.compose(from: analysis, type: request.insightType, includeRecommendations: request.includeRecommendations)
        let insight = Insight(
            insightId: id, userId: ownerId, insightType: request.insightType, narrative: text.narrative,
            keyInsights: text.keyInsights, recommendations: text.recommendations,
            confidenceScore: analysis.confidenceScore, sourceAnalysisId: sourceAnalysisId, generatedAt: Self.whole(now)
        )
        insights[id] = insight
        insightsByUser[ownerId, default: []].append(id)
        return insight
    }

    /// One of the user's insights.
    func insight(id: String, ownerId: String) -> Insight? {
        guard let insight = insights[id], insight.userId == ownerId else { return nil }
        return insight
    }

    /// A page of the user's insights, newest first.
    func history(userId: String, limit: Int, offset: Int) -> InsightHistoryPage {
        let ids = (insightsByUser[userId] ?? []).reversed()
        let page = ids.dropFirst(offset).prefix(limit).compactMap { insights[$0] }
        return InsightHistoryPage(
            insights: Array(page), totalCount: ids.count, limit: limit, offset: offset, hasMore: offset + page.count < ids.count
        )
    }

    /// How many insights exist, for the status route.
    var insightCount: Int { insights.count }

    private static func whole(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}
