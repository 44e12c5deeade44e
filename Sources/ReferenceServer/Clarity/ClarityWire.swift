import ClarityOpenAPI
import Foundation
import OpenAPIRuntime

/// The server's CLARITY records as the backend's published document writes them, in the
/// types generated from that document (`ClarityOpenAPI`): what the routes answer is the
/// document's shape because it is the document's type.
enum ClarityWire {
    /// `TokenResponse`: snake_case, `token_type` `bearer`, no user (that is `/auth/me`'s).
    static func tokens(_ tokens: TokenResponse) -> Components.Schemas.TokenResponse {
        Components.Schemas.TokenResponse(
            accessToken: tokens.accessToken, expiresIn: tokens.expiresIn, refreshToken: tokens.refreshToken,
            scope: "read write", tokenType: "bearer"
        )
    }

    /// `UserInfoResponse`.
    static func user(_ user: ClarityUser) -> Components.Schemas.UserInfoResponse {
        Components.Schemas.UserInfoResponse(
            authProvider: "courier-reference", displayName: user.displayName, email: user.email,
            emailVerified: user.emailVerified, userId: user.id
        )
    }

    /// `ActigraphyAnalysis`, for the user it belongs to.
    static func actigraphy(_ results: ActigraphyAnalysis, userId: String, at date: Date) -> Components.Schemas.ActigraphyAnalysis {
        Components.Schemas.ActigraphyAnalysis(
            activityFragmentation: results.activityFragmentation, analysisTimestamp: timestamp(date),
            circadianRhythmScore: results.circadianRhythmScore, clinicalInsights: results.clinicalInsights,
            confidenceScore: results.confidenceScore, depressionRiskScore: results.depressionRiskScore,
            embedding: embedding(of: results), sleepEfficiency: results.sleepEfficiency,
            sleepOnsetLatency: results.sleepOnsetLatency, sleepStages: sleepStages(of: results),
            totalSleepTime: results.totalSleepTime, userId: userId, wakeAfterSleepOnset: results.wakeAfterSleepOnset
        )
    }

    /// `AnalysisResponse`: the submission's answer.
    static func submission(_ stored: AnalysisResponse, userId: String, elapsed: TimeInterval) -> Components.Schemas.AnalysisResponse {
        Components.Schemas.AnalysisResponse(
            analysis: stored.analysis.map { actigraphy($0, userId: userId, at: stored.completedAt ?? stored.createdAt) },
            analysisId: stored.processingId, cached: false, message: stored.message,
            processingTimeMs: (elapsed * 1_000).rounded(), status: stored.status.rawValue
        )
    }

    /// `PATAnalysisResponse`: an analysis read back.
    static func patAnalysis(_ stored: AnalysisResponse) -> Components.Schemas.PATAnalysisResponse {
        let results = stored.analysis
        return Components.Schemas.PATAnalysisResponse(
            activityEmbedding: results.map(embedding(of:)),
            analysisDate: stored.completedAt.map(timestamp),
            message: stored.message ?? (stored.status == .processing ? "analysis in progress" : nil),
            metadata: try? OpenAPIObjectContainer(unvalidatedValue: ["kind": stored.kind.rawValue, "created_at": timestamp(stored.createdAt)]),
            patFeatures: results.map { results in
                .init(additionalProperties: [
                    "sleep_efficiency": results.sleepEfficiency, "total_sleep_time": results.totalSleepTime,
                    "circadian_rhythm_score": results.circadianRhythmScore, "activity_fragmentation": results.activityFragmentation,
                    "depression_risk_score": results.depressionRiskScore,
                ])
            },
            processingId: stored.processingId, status: stored.status.rawValue
        )
    }

    /// `InsightGenerationResponse {success, data, metadata}`; the insight's id travels in
    /// `metadata.insight_id`, the document's `HealthInsightResponse` having none.
    static func insight(_ insight: Insight) -> Components.Schemas.InsightGenerationResponse {
        Components.Schemas.InsightGenerationResponse(
            data: healthInsight(insight),
            metadata: object([
                "insight_id": insight.insightId, "insight_type": insight.insightType.rawValue,
                "source_analysis_id": insight.sourceAnalysisId ?? "", "model": "template-narrative-1 (synthetic)",
            ]),
            success: true
        )
    }

    /// `HealthInsightResponse`.
    static func healthInsight(_ insight: Insight) -> Components.Schemas.HealthInsightResponse {
        Components.Schemas.HealthInsightResponse(
            confidenceScore: insight.confidenceScore, generatedAt: timestamp(insight.generatedAt),
            keyInsights: insight.keyInsights, narrative: insight.narrative,
            recommendations: insight.recommendations, userId: insight.userId
        )
    }

    /// A free-form object of the document, from plain JSON values.
    static func object(_ values: [String: (any Sendable)?]) -> OpenAPIObjectContainer {
        (try? OpenAPIObjectContainer(unvalidatedValue: values)) ?? OpenAPIObjectContainer()
    }

    /// ISO 8601 in UTC, whole seconds: `2026-11-20T07:12:00Z`.
    static func timestamp(_ date: Date) -> String {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)).formatted(Date.ISO8601FormatStyle())
    }

    /// A short, deterministic embedding of the results (the real service's is the model's).
    private static func embedding(of results: ActigraphyAnalysis) -> [Double] {
        [results.sleepEfficiency / 100, results.totalSleepTime / 24, results.circadianRhythmScore, results.activityFragmentation, results.depressionRiskScore]
            .map { ($0 * 1_000).rounded() / 1_000 }
    }

    /// Sleep stages by hour of the night, from the totals.
    private static func sleepStages(of results: ActigraphyAnalysis) -> [String] {
        let hours = max(0, Int(results.totalSleepTime.rounded()))
        return (0..<hours).map { hour in hour % 4 == 0 ? "light" : hour % 4 == 2 ? "deep" : hour % 4 == 3 ? "rem" : "light" }
    }
}
