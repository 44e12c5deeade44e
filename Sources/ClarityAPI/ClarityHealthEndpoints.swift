public import ClarityCore
public import Courier
import Foundation

/// CLARITY's PAT analysis (`/api/v1/pat`) and insights (`/api/v1/insights`) endpoints as typed
/// requests, with paths relative to ``ClarityAuthEndpoints/root``.
///
/// Completed analyses and insights never change and the server marks them `immutable`, so
/// with an `HTTPCache` on the client they are read from the cache after the first time.
public enum ClarityHealthEndpoints {
    /// `POST /api/v1/pat/step-analysis`: analyses step counts as proxy actigraphy. Answers 202
    /// with the analysis, which may still be processing.
    public static func analyzeSteps(_ steps: StepAnalysisRequest) -> Request<AnalysisResponse> {
        Request(method: .post, path: "/pat/step-analysis", body: .json(steps), options: ClarityUploadEndpoints.personal(), name: "clarity.pat.steps")
    }

    /// `POST /api/v1/pat/analysis`: analyses actigraphy samples directly. Answers 202 with the
    /// analysis, which may still be processing.
    public static func analyzeActigraphy(_ actigraphy: ActigraphyAnalysisRequest) -> Request<AnalysisResponse> {
        Request(method: .post, path: "/pat/analysis", body: .json(actigraphy), options: ClarityUploadEndpoints.personal(), name: "clarity.pat.actigraphy")
    }

    /// `GET /api/v1/pat/analysis/{id}`: an analysis as it stands.
    /// - Parameter id: The analysis's `AnalysisResponse.processingId`.
    public static func analysis(id: String) -> Request<AnalysisResponse> {
        Request(path: "/pat/analysis/" + RequestTarget.pathSegment(id), name: "clarity.pat.analysis")
    }

    /// `GET /api/v1/pat/health`: the analysis service's health.
    public static func patHealth() -> Request<ServiceStatus> {
        Request(path: "/pat/health", name: "clarity.pat.health")
    }

    /// `POST /api/v1/insights/generate`: writes an insight from an analysis. Answers 201.
    ///
    /// A success drops every cached page of insight history
    /// (`RequestOptions.invalidates`), so the next history read shows the new insight.
    public static func generateInsight(_ request: InsightRequest) -> Request<Insight> {
        Request(
            method: .post, path: "/insights/generate", body: .json(request),
            options: ClarityUploadEndpoints.personal(RequestOptions(invalidates: ["/insights/history"])), name: "clarity.insights.generate"
        )
    }

    /// `GET /api/v1/insights/{id}`: one insight.
    /// - Parameter id: The insight's `Insight.insightId`.
    public static func insight(id: String) -> Request<Insight> {
        Request(path: "/insights/" + RequestTarget.pathSegment(id), name: "clarity.insights.get")
    }

    /// `GET /api/v1/insights/history/{userId}?limit&offset`: a page of a user's insights,
    /// newest first. Only the signed-in user's own history is readable (403 otherwise).
    public static func insightHistory(userId: String, limit: Int = 20, offset: Int = 0) -> Request<InsightHistoryPage> {
        Request(
            path: "/insights/history/" + RequestTarget.pathSegment(userId),
            query: [URLQueryItem(name: "limit", value: "\(limit)"), URLQueryItem(name: "offset", value: "\(offset)")],
            name: "clarity.insights.history"
        )
    }

    /// `GET /api/v1/insights/status`: the insights service's status.
    public static func insightsStatus() -> Request<ServiceStatus> {
        Request(path: "/insights/status", name: "clarity.insights.status")
    }
}
