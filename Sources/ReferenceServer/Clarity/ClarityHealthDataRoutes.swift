import ClarityCore
import Foundation
import Hummingbird

/// CLARITY's health data API under `/api/v1/health-data`:
///
/// - `POST` stores a batch of metrics and answers 201 with its processing status. It honours
///   `Idempotency-Key` (see ``IdempotentWrite``): a repeated batch is stored once.
/// - `GET ?page&limit&type` pages through the user's metrics, oldest first, in the
///   `{"data", "meta"}` shape.
/// - `GET /processing/{id}` follows a batch's processing.
struct ClarityHealthDataRoutes: Sendable {
    /// The most metrics in one batch.
    static let maximumMetrics = 1_000
    /// The largest page.
    static let maximumPageSize = 100

    let store: ClarityHealthStore
    let idempotency: IdempotentWrite

    /// Adds the routes to a group mounted at `/api`, behind authentication.
    func register(on api: RouterGroup<ReferenceRequestContext>) {
        api.post("v1/health-data") { request, context in
            try await idempotency.respond(to: request, context: context) { request, context in
                let userId = try context.requireUserId()
                let upload = try await request.decodeJSONBody(as: HealthDataUpload.self)
                guard (1...Self.maximumMetrics).contains(upload.metrics.count) else {
                    throw APIError.validationFailed("a batch holds 1 to \(Self.maximumMetrics) metrics")
                }
                guard upload.metrics.allSatisfy({ $0.value.isFinite }) else {
                    throw APIError.validationFailed("metric values must be finite numbers")
                }
                let processing = await store.acceptMetrics(upload.metrics, ownerId: userId, at: Date())
                return try Response.json(
                    processing, status: .created,
                    headers: [.location: "/api/v1/health-data/processing/\(processing.processingId)"]
                )
            }
        }
        api.get("v1/health-data") { request, context in
            let query = QueryItems(rawQuery: request.uri.query)
            let page = try query.integer("page", default: 1, in: 1...Int.max)
            let limit = try query.integer("limit", default: 50, in: 1...Self.maximumPageSize)
            var type: HealthMetricType?
            if let name = query.first("type") {
                guard let known = HealthMetricType(rawValue: name) else {
                    throw APIError.validationFailed("unknown metric type \(name)")
                }
                type = known
            }
            let result = await store.metrics(ownerId: try context.requireUserId(), type: type, page: page, limit: limit)
            return try Response.json(result, headers: [.cacheControl: "no-store"])
        }
        api.get("v1/health-data/processing/{id}") { _, context in
            let id = context.parameters.get("id") ?? ""
            guard let status = await store.batchStatus(id: id, ownerId: try context.requireUserId(), at: Date()) else {
                throw APIError.notFound("no health data batch \(id)")
            }
            return try Response.json(status, headers: [.cacheControl: "no-store"])
        }
    }
}
