import ClarityCore
import ClarityOpenAPI
import Foundation
import Hummingbird
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
/// - `GET /api/v1/insights/status`: `data` is `{service, status, model, timestamp}`.
struct ClarityInsightRoutes: Sendable {
    /// The most insights one history page holds.
    static let maximumPageSize = 100

    let store: ClarityStore

    func register(on api: RouterGroup<ReferenceRequestContext>) {
        api.post("v1/insights") { request, context in
            let userId = try context.requireUserId()
            let body = try await request.decodeJSONBody(as: Components.Schemas.InsightGenerationRequest.self)
            let type = try Self.insightType(body.insightType)
            let (analysis, sourceId) = try await source(of: body.analysisResults, userId: userId)
            let insight = await store.generateInsight(
                from: analysis, sourceAnalysisId: sourceId,
                request: InsightRequest(analysisId: sourceId, insightType: type, includeRecommendations: body.includeRecommendations ?? true),
                ownerId: userId, at: Date()
            )
            return try Response.json(ClarityWire.insight(insight), headers: [.location: "/api/v1/insights/\(insight.insightId)"])
        }
        api.get("v1/insights/status") { _, _ in
            let data = ClarityWire.object([
                "service": "insights", "status": "healthy", "model": "template-narrative-1 (synthetic)",
                "timestamp": ClarityWire.timestamp(Date()), "insights_generated": await store.insightCount,
            ])
            return try Response.json(
                Components.Schemas.ServiceStatusResponse(data: data, metadata: ClarityWire.object(["request_id": UUID().uuidString]), success: true),
                headers: [.cacheControl: "no-store"]
            )
        }
        api.get("v1/insights/history/{userId}") { request, context in
            let userId = try context.requireUserId()
            guard context.parameters.get("userId") == userId else {
                throw APIError(status: .forbidden, code: "forbidden", message: "a user reads only their own insight history")
            }
            let query = QueryItems(rawQuery: request.uri.query)
            let limit = try query.integer("limit", default: 10, in: 1...Self.maximumPageSize)
            let offset = try query.integer("offset", default: 0, in: 0...Int.max)
            let page = await store.history(userId: userId, limit: limit, offset: offset)
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
            let answer = Components.Schemas.InsightHistoryResponse(data: data, metadata: ClarityWire.object(["user_id": userId]), success: true)
            return try Response.cacheableJSON(answer, for: request, cacheControl: "private, no-cache", lastModified: page.insights.first?.generatedAt)
        }
        api.get("v1/insights/{id}") { request, context in
            let id = context.parameters.get("id") ?? ""
            guard let insight = await store.insight(id: id, ownerId: try context.requireUserId()) else {
                throw APIError.notFound("no insight \(id)")
            }
            return try Response.cacheableJSON(
                ClarityWire.insight(insight), for: request, cacheControl: ClarityAnalysisRoutes.completedCacheControl, lastModified: insight.generatedAt
            )
        }
    }

    private static func insightType(_ name: String?) throws -> InsightType {
        guard let name else { return .comprehensive }
        guard let type = InsightType(rawValue: name) else {
            throw APIError.validationFailed("insight_type must be one of \(InsightType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return type
    }

    /// The analysis an insight is written from: a stored one named by `analysis_id`, or the
    /// numbers given.
    private func source(of results: OpenAPIObjectContainer, userId: String) async throws -> (ActigraphyAnalysis, String?) {
        let values = results.value
        if let id = values["analysis_id"] as? String {
            guard let stored = await store.analysis(id: id, ownerId: userId, at: Date()) else { throw APIError.notFound("no analysis \(id)") }
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
            throw APIError.validationFailed("analysis_results needs an analysis_id, or sleep_efficiency and total_sleep_time")
        }
        let analysis = ActigraphyAnalysis(
            sleepEfficiency: efficiency, sleepOnsetLatency: number("sleep_onset_latency") ?? 15, wakeAfterSleepOnset: number("wake_after_sleep_onset") ?? 30,
            totalSleepTime: sleep, circadianRhythmScore: number("circadian_rhythm_score") ?? 0.8, activityFragmentation: number("activity_fragmentation") ?? 0.2,
            depressionRiskScore: number("depression_risk_score") ?? 0.1, confidenceScore: number("confidence_score") ?? 0.8, sampleCount: 0, clinicalInsights: []
        )
        return (analysis, nil)
    }
}
