import ClarityOpenAPI
import Foundation
import OpenAPIRuntime

/// CLARITY's insights, as the backend's document gives them, each answer wrapped as
/// `{success, data, metadata}`:
///
/// - `POST /api/v1/insights/` (`InsightGenerationRequest`) writes an insight from
///   `analysis_results`: an `analysis_id` of one of the user's completed analyses, or the
///   analysis's own numbers (`sleep_efficiency`, `total_sleep_time`, …); `insight_type` is
///   `comprehensive` (the default), `sleep`, `activity` or `circadian`. The insight's id is
///   `metadata.insight_id`.
/// - `GET /api/v1/insights/{insight_id}`: one insight (immutable, cacheable);
/// - `GET /api/v1/insights/history/{user_id}?limit&offset`: `data` is `{insights, total_count,
///   has_more, pagination: {limit, offset}}`, newest first; another user's history is 403;
/// - `GET /api/v1/insights/status`: `data` is `{service, status, model, timestamp}`. (The real
///   service declares `/{insight_id}` first, so its `/status` answers as an unknown insight; the
///   reference server answers what the document describes.)
extension ClarityService {
    func generateInsightsApiV1InsightsPost(_ input: Operations.GenerateInsightsApiV1InsightsPost.Input) async throws -> Operations.GenerateInsightsApiV1InsightsPost.Output {
        let userId = try ClarityCall.userId()
        guard case .json(let body) = input.body else { throw APIError.requestInvalid("missing", at: ["body"], "Field required") }
        let type = try Self.insightType(body.insightType)
        let (analysis, sourceId) = try await source(of: body.analysisResults, userId: userId)
        let insight = await clarity.generateInsight(
            from: analysis, sourceAnalysisId: sourceId,
            request: InsightRequest(analysisId: sourceId, insightType: type, includeRecommendations: body.includeRecommendations ?? true),
            ownerId: userId, at: Date()
        )
        try ClarityCall.running().respond(.location, "/api/v1/insights/\(insight.insightId)")
        return .ok(.init(body: .json(ClarityWire.insight(insight))))
    }

    func getServiceStatusApiV1InsightsStatusGet(_ input: Operations.GetServiceStatusApiV1InsightsStatusGet.Input) async throws -> Operations.GetServiceStatusApiV1InsightsStatusGet.Output {
        _ = try ClarityCall.userId()
        let data = ClarityWire.object([
            "service": "insights", "status": "healthy", "model": "template-narrative-1 (synthetic)",
            "timestamp": ClarityWire.timestamp(Date()), "insights_generated": await clarity.insightCount,
        ])
        try ClarityCall.running().respond(.cacheControl, "no-store")
        return .ok(.init(body: .json(.init(data: data, metadata: ClarityWire.object(["request_id": UUID().uuidString]), success: true))))
    }

    func getInsightHistoryApiV1InsightsHistoryUserIdGet(_ input: Operations.GetInsightHistoryApiV1InsightsHistoryUserIdGet.Input) async throws -> Operations.GetInsightHistoryApiV1InsightsHistoryUserIdGet.Output {
        let userId = try ClarityCall.userId()
        guard input.path.userId == userId else {
            throw APIError(status: .forbidden, code: "forbidden", message: "a user reads only their own insight history")
        }
        let limit = input.query.limit ?? 10
        guard (1...Self.maximumInsightPage).contains(limit) else {
            throw Self.outOfRange("limit", "limit must be between 1 and \(Self.maximumInsightPage)")
        }
        let offset = input.query.offset ?? 0
        guard offset >= 0 else { throw Self.outOfRange("offset", "offset must not be negative") }
        let page = await clarity.history(userId: userId, limit: limit, offset: offset)
        let entries: [[String: (any Sendable)?]] = page.insights.map { insight in
            [
                "id": insight.insightId, "narrative": insight.narrative, "key_insights": insight.keyInsights,
                "recommendations": insight.recommendations, "confidence_score": insight.confidenceScore,
                "generated_at": ClarityWire.timestamp(insight.generatedAt), "insight_type": insight.insightType.rawValue,
            ]
        }
        let data = ClarityWire.object([
            "insights": entries, "total_count": page.totalCount, "has_more": page.hasMore,
            "pagination": ["limit": limit, "offset": offset] as [String: (any Sendable)?],
        ])
        try ClarityCall.running().cacheable(cacheControl: "private, no-cache", lastModified: page.insights.first?.generatedAt)
        return .ok(.init(body: .json(.init(data: data, metadata: ClarityWire.object(["user_id": userId]), success: true))))
    }

    func getInsightApiV1InsightsInsightIdGet(_ input: Operations.GetInsightApiV1InsightsInsightIdGet.Input) async throws -> Operations.GetInsightApiV1InsightsInsightIdGet.Output {
        let id = input.path.insightId
        guard let insight = await clarity.insight(id: id, ownerId: try ClarityCall.userId()) else {
            throw APIError.notFound("no insight \(id)")
        }
        try ClarityCall.running().cacheable(cacheControl: Self.completedCacheControl, lastModified: insight.generatedAt)
        return .ok(.init(body: .json(ClarityWire.insight(insight))))
    }

    private static func insightType(_ name: String?) throws -> InsightType {
        guard let name else { return .comprehensive }
        guard let type = InsightType(rawValue: name) else {
            throw APIError.requestInvalid(
                "enum", at: ["body", "insight_type"], "insight_type must be one of \(InsightType.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        return type
    }

    /// The analysis an insight is written from: a stored one named by `analysis_id`, or the
    /// numbers given.
    private func source(of results: OpenAPIObjectContainer, userId: String) async throws -> (ActigraphyAnalysis, String?) {
        let values = results.value
        if let id = values["analysis_id"] as? String {
            guard let stored = await clarity.analysis(id: id, ownerId: userId, at: Date()) else { throw APIError.notFound("no analysis \(id)") }
            guard let analysis = stored.analysis else {
                throw APIError(status: .conflict, code: "analysis_not_ready", message: "analysis \(id) is still \(stored.status.rawValue)")
            }
            return (analysis, id)
        }
        func number(_ key: String) -> Double? {
            switch values[key] ?? nil {
            case let value as Double: value
            case let value as Int: Double(value)
            default: nil
            }
        }
        guard let efficiency = number("sleep_efficiency"), let sleep = number("total_sleep_time") else {
            throw APIError.requestInvalid(
                "value_error", at: ["body", "analysis_results"], "analysis_results needs an analysis_id, or sleep_efficiency and total_sleep_time"
            )
        }
        let analysis = ActigraphyAnalysis(
            sleepEfficiency: efficiency, sleepOnsetLatency: number("sleep_onset_latency") ?? 15, wakeAfterSleepOnset: number("wake_after_sleep_onset") ?? 30,
            totalSleepTime: sleep, circadianRhythmScore: number("circadian_rhythm_score") ?? 0.8, activityFragmentation: number("activity_fragmentation") ?? 0.2,
            depressionRiskScore: number("depression_risk_score") ?? 0.1, confidenceScore: number("confidence_score") ?? 0.8, sampleCount: 0, clinicalInsights: []
        )
        return (analysis, nil)
    }
}
