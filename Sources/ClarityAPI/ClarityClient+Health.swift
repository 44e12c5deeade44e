public import ClarityCore
public import Courier
import Foundation

extension ClarityClient {
    /// Analyses step counts and waits for the results.
    /// - Parameters:
    ///   - steps: The step counts and their timestamps.
    ///   - pollInterval: How long to wait between checks while the analysis is processing.
    ///   - timeout: How long to wait in all before giving up.
    /// - Returns: The completed analysis.
    /// - Throws: `CourierError`; `CourierError.Code.timedOut` when it is
    ///   still processing after `timeout`, `CourierError.Code.invalidResponse` when it failed.
    public func analyzeSteps(_ steps: StepAnalysisRequest, pollInterval: Duration = .seconds(1), timeout: Duration = .seconds(60)) async throws -> AnalysisResponse {
        let submitted = try await client.value(for: ClarityHealthEndpoints.analyzeSteps(steps))
        return try await awaitCompletion(of: submitted, pollInterval: pollInterval, timeout: timeout)
    }

    /// Analyses actigraphy samples and waits for the results.
    /// - Parameters:
    ///   - actigraphy: The samples.
    ///   - pollInterval: How long to wait between checks while the analysis is processing.
    ///   - timeout: How long to wait in all before giving up.
    /// - Returns: The completed analysis.
    /// - Throws: As ``analyzeSteps(_:pollInterval:timeout:)``.
    public func analyzeActigraphy(
        _ actigraphy: ActigraphyAnalysisRequest, pollInterval: Duration = .seconds(1), timeout: Duration = .seconds(60)
    ) async throws -> AnalysisResponse {
        let submitted = try await client.value(for: ClarityHealthEndpoints.analyzeActigraphy(actigraphy))
        return try await awaitCompletion(of: submitted, pollInterval: pollInterval, timeout: timeout)
    }

    /// An analysis as it stands; a completed one comes from the cache after the first read.
    public func analysis(id: String) async throws -> AnalysisResponse {
        try await client.value(for: ClarityHealthEndpoints.analysis(id: id))
    }

    /// The analysis service's health.
    public func patHealth() async throws -> ServiceStatus {
        try await client.value(for: ClarityHealthEndpoints.patHealth())
    }

    /// Writes an insight from an analysis.
    public func generateInsight(_ request: InsightRequest) async throws -> Insight {
        try await client.value(for: ClarityHealthEndpoints.generateInsight(request))
    }

    /// One insight; it comes from the cache after the first read.
    public func insight(id: String) async throws -> Insight {
        try await client.value(for: ClarityHealthEndpoints.insight(id: id))
    }

    /// The insights service's status.
    public func insightsStatus() async throws -> ServiceStatus {
        try await client.value(for: ClarityHealthEndpoints.insightsStatus())
    }

    /// A user's insight history, newest first, as pages fetched while iterating.
    ///
    /// ```swift
    /// for try await page in clarity.insightHistory(userId: me.id, pageSize: 20) {
    ///     show(page.insights)
    /// }
    /// ```
    /// - Parameters:
    ///   - userId: The user (the signed-in user's own id).
    ///   - pageSize: Insights per page, 1…100.
    public func insightHistory(userId: String, pageSize: Int = 20) -> Pages<InsightHistoryPage> {
        Pages.offsetLimit(
            client: client,
            limit: pageSize,
            request: { offset, limit in ClarityHealthEndpoints.insightHistory(userId: userId, limit: limit, offset: offset) },
            itemCount: { $0.insights.count },
            total: { $0.totalCount }
        )
    }

    /// One page of a user's insight history, newest first (seed 002's
    /// `getInsightHistory(userId:limit:offset:)`). To walk every page, use
    /// ``insightHistory(userId:pageSize:)``.
    /// - Parameters:
    ///   - userId: The user (the signed-in user's own id; another's is a 403).
    ///   - limit: Insights per page, 1…100.
    ///   - offset: How many insights to skip.
    public func insightHistory(userId: String, limit: Int, offset: Int) async throws -> InsightHistoryPage {
        try await client.value(for: ClarityHealthEndpoints.insightHistory(userId: userId, limit: limit, offset: offset))
    }

    /// Polls an analysis until it is no longer processing, on the client's clock.
    /// - Parameters:
    ///   - submitted: The analysis as submitted.
    ///   - pollInterval: How long to wait between checks.
    ///   - timeout: How long to wait in all.
    /// - Returns: The completed analysis.
    /// - Throws: `CourierError`; `CourierError.Code.timedOut` when it is
    ///   still processing after `timeout`, `CourierError.Code.invalidResponse` when it failed.
    public func awaitCompletion(of submitted: AnalysisResponse, pollInterval: Duration = .seconds(1), timeout: Duration = .seconds(60)) async throws -> AnalysisResponse {
        let clock = client.configuration.clock
        let deadline = clock.now.advanced(by: timeout)
        var current = submitted
        while current.status == .processing {
            guard clock.now.advanced(by: pollInterval) <= deadline else {
                throw CourierError(code: .timedOut, message: "analysis \(current.processingId) is still processing after \(timeout)")
            }
            try await clock.sleep(for: pollInterval)
            current = try await analysis(id: current.processingId)
        }
        guard current.status == .completed else {
            throw CourierError(code: .invalidResponse, message: "analysis \(current.processingId) failed: \(current.message ?? "no reason given")")
        }
        return current
    }
}
