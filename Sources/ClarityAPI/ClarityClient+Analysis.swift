public import ClarityOpenAPI
public import Courier
import Foundation
import OpenAPIRuntime

extension ClarityClient {
    // MARK: - PAT analysis (/api/v1/pat)

    /// Analyses step counts (seed 002's `analyzeStepData`): `POST /api/v1/pat/step-analysis`.
    public func analyzeSteps(_ steps: StepDataRequest) async throws -> AnalysisResponse {
        try await ClarityCall.run("step analysis") { try await api.analyzeStepDataApiV1PatStepAnalysisPost(body: .json(steps)).ok.body.json }
    }

    /// Analyses actigraphy samples (seed 002's `analyzeActigraphy`): `POST /api/v1/pat/analysis`.
    public func analyzeActigraphy(_ actigraphy: DirectActigraphyRequest) async throws -> AnalysisResponse {
        try await ClarityCall.run("actigraphy analysis") { try await api.analyzeActigraphyDataApiV1PatAnalysisPost(body: .json(actigraphy)).ok.body.json }
    }

    /// An analysis as it stands (seed 002's `getPATAnalysis`):
    /// `GET /api/v1/pat/analysis/{processing_id}`. A finished one is immutable, and the cache
    /// serves it after the first read when the server says so.
    public func analysis(id: String) async throws -> PATAnalysisResponse {
        try await ClarityCall.run("PAT analysis") {
            try await api.getPatAnalysisApiV1PatAnalysisProcessingIdGet(path: .init(processingId: id)).ok.body.json
        }
    }

    /// The analysis service's health (seed 002's `getPATServiceHealth`): `GET /api/v1/pat/health`.
    public func patHealth() async throws -> PATServiceHealth {
        try await ClarityCall.run("PAT health") { try await api.healthCheckApiV1PatHealthGet().ok.body.json }
    }

    /// Polls an analysis until it is no longer processing, on the client's clock.
    /// - Parameters:
    ///   - id: The analysis's id (`analysis_id` of the submission).
    ///   - pollInterval: How long to wait between checks.
    ///   - timeout: How long to wait in all.
    /// - Returns: The finished analysis.
    /// - Throws: `CourierError`; `CourierError.Code.timedOut` when it is still processing after
    ///   `timeout`, `CourierError.Code.invalidResponse` when it failed.
    public func awaitAnalysis(id: String, pollInterval: Duration = .seconds(1), timeout: Duration = .seconds(60)) async throws -> PATAnalysisResponse {
        let clock = client.configuration.clock
        let deadline = clock.now.advanced(by: timeout)
        var current = try await analysis(id: id)
        while !current.state.isFinished {
            guard clock.now.advanced(by: pollInterval) <= deadline else {
                throw CourierError(code: .timedOut, message: "analysis \(id) is still \(current.status) after \(timeout)")
            }
            try await clock.sleep(for: pollInterval)
            current = try await analysis(id: id)
        }
        guard current.state == .completed else {
            throw CourierError(code: .invalidResponse, message: "analysis \(id) ended \(current.status): \(current.message ?? "no reason given")")
        }
        return current
    }

    // MARK: - Insights (/api/v1/insights)

    /// Writes an insight from analysis results (seed 002's `generateInsights`):
    /// `POST /api/v1/insights/`, answered `{success, data, metadata}`.
    public func generateInsight(_ request: InsightGenerationRequest) async throws -> InsightGenerationResponse {
        try await ClarityCall.run("generate insight") { try await api.generateInsightsApiV1InsightsPost(body: .json(request)).ok.body.json }
    }

    /// One insight (seed 002's `getInsight`): `GET /api/v1/insights/{insight_id}`.
    public func insight(id: String) async throws -> InsightGenerationResponse {
        try await ClarityCall.run("insight") { try await api.getInsightApiV1InsightsInsightIdGet(path: .init(insightId: id)).ok.body.json }
    }

    /// One page of a user's insight history (seed 002's `getInsightHistory(userId:limit:offset:)`):
    /// `GET /api/v1/insights/history/{user_id}?limit&offset`, whose `data` the document leaves
    /// free-form and which is read leniently.
    /// - Parameters:
    ///   - userId: The user (the signed-in user's own id).
    ///   - limit: Insights per page.
    ///   - offset: How many insights to skip.
    public func insightHistory(userId: String, limit: Int = 10, offset: Int = 0) async throws -> ClarityInsightHistory {
        let answer = try await ClarityCall.run("insight history") {
            try await api.getInsightHistoryApiV1InsightsHistoryUserIdGet(path: .init(userId: userId), query: .init(limit: limit, offset: offset)).ok.body.json
        }
        return try ClarityFreeform.decode(ClarityInsightHistory.self, from: answer.data, operation: "insight history")
    }

    /// A user's insight history as pages fetched while iterating, `limit` at a time, until a
    /// page says there is no more (or comes back short).
    public func insightHistory(userId: String, pageSize: Int) -> Pages<ClarityInsightHistory> {
        let client = self
        let first = Request<ClarityInsightHistory>(path: "/api/v1/insights/history/", query: [URLQueryItem(name: "offset", value: "0")])
        return Pages(
            first: first,
            send: { request in
                let offset = request.query.first { $0.name == "offset" }?.value.flatMap(Int.init) ?? 0
                return try await client.insightHistory(userId: userId, limit: pageSize, offset: offset)
            },
            next: { page, previous in
                let more = page.hasMore ?? (page.insights.count == pageSize)
                guard more, !page.insights.isEmpty else { return nil }
                let offset = (previous.query.first { $0.name == "offset" }?.value.flatMap(Int.init) ?? 0) + page.insights.count
                var next = previous
                next.query = [URLQueryItem(name: "offset", value: "\(offset)")]
                return next
            }
        )
    }

    /// The insights service's status (seed 002's `getInsightsServiceStatus`):
    /// `GET /api/v1/insights/status`, whose `data` is read leniently.
    public func insightsStatus() async throws -> ClarityServiceStatus {
        let answer = try await ClarityCall.run("insights status") { try await api.getServiceStatusApiV1InsightsStatusGet().ok.body.json }
        return try ClarityFreeform.decode(ClarityServiceStatus.self, from: answer.data, operation: "insights status")
    }
}
