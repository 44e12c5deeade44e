import ClarityCore
import Foundation
import Hummingbird

/// CLARITY's insights API under `/api/v1/insights`: generate an insight, read one by id, a
/// user's history (limit and offset), and the service's status.
///
/// An insight never changes: reading it is cacheable for a day and `immutable`. The history
/// grows, so it is `private, no-cache` with an `ETag`: always revalidated, usually with a 304.
struct ClarityInsightRoutes: Sendable {
    /// The largest history page.
    static let maximumPageSize = 100

    let store: ClarityStore

    /// Adds the routes to a group mounted at `/api`, behind authentication.
    func register(on api: RouterGroup<ReferenceRequestContext>) {
        api.post("v1/insights/generate") { request, context in
            let userId = try context.requireUserId()
            let body = try await request.decodeJSONBody(as: InsightRequest.self)
            let (analysis, sourceId) = try await source(of: body, userId: userId)
            let insight = await store.generateInsight(from: analysis, sourceAnalysisId: sourceId, request: body, ownerId: userId, at: Date())
            return try Response.json(insight, status: .created, headers: [.location: "/api/v1/insights/\(insight.insightId)"])
        }
        api.get("v1/insights/status") { _, _ in
            let status = ServiceStatus(
                service: "insights", status: .healthy, modelVersion: "template-narrative-1 (synthetic)", timestamp: Date(),
                details: ["insights_generated": "\(await store.insightCount)"]
            )
            return try Response.json(status, headers: [.cacheControl: "no-store"])
        }
        api.get("v1/insights/history/{userId}") { request, context in
            let userId = try context.requireUserId()
            guard context.parameters.get("userId") == userId else {
                throw APIError(status: .forbidden, code: "forbidden", message: "a user reads only their own insight history")
            }
            let query = QueryItems(rawQuery: request.uri.query)
            let limit = try query.integer("limit", default: 20, in: 1...Self.maximumPageSize)
            let offset = try query.integer("offset", default: 0, in: 0...Int.max)
            let page = await store.history(userId: userId, limit: limit, offset: offset)
            return try Response.cacheableJSON(page, for: request, cacheControl: "private, no-cache", lastModified: page.insights.first?.generatedAt)
        }
        api.get("v1/insights/{id}") { request, context in
            let id = context.parameters.get("id") ?? ""
            guard let insight = await store.insight(id: id, ownerId: try context.requireUserId()) else {
                throw APIError.notFound("no insight \(id)")
            }
            return try Response.cacheableJSON(
                insight, for: request, cacheControl: ClarityAnalysisRoutes.completedCacheControl, lastModified: insight.generatedAt
            )
        }
    }

    /// The results an insight is written from: the stored analysis named, or the results given.
    private func source(of body: InsightRequest, userId: String) async throws -> (ActigraphyAnalysis, String?) {
        if let id = body.analysisId {
            guard let stored = await store.analysis(id: id, ownerId: userId, at: Date()) else { throw APIError.notFound("no analysis \(id)") }
            guard let results = stored.analysis else {
                throw APIError(status: .conflict, code: "analysis_not_ready", message: "analysis \(id) is still \(stored.status.rawValue)")
            }
            return (results, id)
        }
        guard let results = body.analysisResults else {
            throw APIError.validationFailed("give analysisId or analysisResults")
        }
        return (results, nil)
    }
}
