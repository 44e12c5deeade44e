import ClarityCore
import ClarityOpenAPI
import Foundation
import Hummingbird
import OpenAPIRuntime

/// CLARITY's health data, as the backend's document gives it:
///
/// - `POST /api/v1/health-data/` takes a `HealthDataUpload` for the signed-in user (another
///   user's `user_id` is 403), 1 to 1,000 metrics, and answers 201 `HealthDataResponse`. With an
///   `Idempotency-Key`, a repeat answers the first answer again and stores nothing new.
/// - `GET /api/v1/health-data/?limit&cursor&data_type&start_date&end_date` (or `offset`
///   instead of `cursor`) answers a cursor page
///   `{data, pagination, links}`, oldest first; the cursor is opaque (`pagination.next_cursor`).
/// - `GET /api/v1/health-data/processing/{processing_id}`: an object of `processing_id`,
///   `status`, `progress`, `total_metrics`, `processed_metrics`, `message`, `created_at` and
///   `updated_at`.
struct ClarityHealthDataRoutes: Sendable {
    /// The most metrics one upload holds.
    static let maximumMetrics = 1_000
    /// The largest page.
    static let maximumPageSize = 100

    let store: ClarityHealthStore
    let idempotency: IdempotentWrite

    func register(on api: RouterGroup<ReferenceRequestContext>) {
        api.post("v1/health-data") { request, context in
            try await idempotency.respond(to: request, context: context) { request, context in
                let userId = try context.requireUserId()
                let upload = try await request.decodeJSONBody(as: Components.Schemas.HealthDataUpload.self)
                guard upload.userId == userId else {
                    throw APIError(status: .forbidden, code: "forbidden", message: "cannot upload health data for a different user")
                }
                guard (1...Self.maximumMetrics).contains(upload.metrics.count) else {
                    throw APIError.validationFailed("a batch holds 1 to \(Self.maximumMetrics) metrics")
                }
                let now = Date()
                let processing = await store.acceptMetrics(upload.metrics, ownerId: userId, at: now)
                let answer = Components.Schemas.HealthDataResponse(
                    acceptedMetrics: upload.metrics.count, estimatedProcessingTime: 0,
                    message: "accepted \(upload.metrics.count) metrics for processing", processingId: processing.processingId,
                    rejectedMetrics: 0, status: processing.status == .completed ? "completed" : "processing",
                    syncToken: upload.syncToken, timestamp: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)), validationErrors: []
                )
                return try Response.json(answer, status: .created, headers: [.location: "/api/v1/health-data/processing/\(processing.processingId)"])
            }
        }
        api.get("v1/health-data") { request, context in
            let query = QueryItems(rawQuery: request.uri.query)
            let limit = try query.integer("limit", default: 50, in: 1...Self.maximumPageSize)
            let offset = try query.first("cursor").map(Self.offset(cursor:)) ?? query.integer("offset", default: 0, in: 0...Int.max)
            let type = query.first("data_type")
            let start = try Self.moment(query, "start_date")
            let end = try Self.moment(query, "end_date")
            let page = await store.metrics(ownerId: try context.requireUserId(), type: type, from: start, through: end, offset: offset, limit: limit)
            let data = try page.items.map { try JSONDecoder().decode(OpenAPIObjectContainer.self, from: APIJSON.makeEncoder().encode($0)) }
            func link(_ cursor: String?) -> String {
                var items = ["limit=\(limit)"]
                if let cursor { items.append("cursor=\(cursor)") }
                if let type { items.append("data_type=\(type)") }
                return "/api/v1/health-data/?" + items.joined(separator: "&")
            }
            let next = page.nextOffset.map(Self.cursor(offset:))
            let previous = offset > 0 ? Self.cursor(offset: max(0, offset - limit)) : nil
            let answer = Components.Schemas.PaginatedResponseDictStrAny(
                data: data,
                links: .init(first: link(nil), next: next.map(link), previous: previous.map(link), _self: link(query.first("cursor"))),
                pagination: .init(hasNext: next != nil, hasPrevious: offset > 0, nextCursor: next, pageSize: limit, previousCursor: previous, totalCount: page.totalCount)
            )
            return try Response.json(answer, headers: [.cacheControl: "no-store"])
        }
        api.get("v1/health-data/processing/{id}") { _, context in
            let id = context.parameters.get("id") ?? ""
            guard let status = await store.batchStatus(id: id, ownerId: try context.requireUserId(), at: Date()) else {
                throw APIError.notFound("no health data batch \(id)")
            }
            let share = status.totalMetrics == 0 ? 1 : Double(status.processedMetrics) / Double(status.totalMetrics)
            return try Response.json(
                ClarityWire.object([
                    "processing_id": status.processingId, "status": status.status.rawValue, "progress": share,
                    "total_metrics": status.totalMetrics, "processed_metrics": status.processedMetrics, "message": status.message,
                    "created_at": ClarityWire.timestamp(status.createdAt), "updated_at": status.completedAt.map(ClarityWire.timestamp),
                ]),
                headers: [.cacheControl: "no-store"]
            )
        }
    }

    /// A `start_date` or `end_date` filter: an ISO 8601 date-time, or 422.
    private static func moment(_ query: QueryItems, _ name: String) throws -> Date? {
        guard let text = query.first(name) else { return nil }
        guard let date = APIJSON.parseISO8601(text) ?? APIJSON.parseISO8601(text + "Z") else {
            throw APIError.validationFailed("\(name) must be an ISO 8601 date-time, not \"\(text)\"")
        }
        return date
    }

    /// The opaque cursor of an offset.
    private static func cursor(offset: Int) -> String {
        Data("o:\(offset)".utf8).base64EncodedString()
    }

    /// The offset a cursor names; 0 without one.
    /// - Throws: ``APIError`` 422 for a cursor the server did not make.
    private static func offset(cursor: String) throws -> Int {
        guard let data = Data(base64Encoded: cursor), let text = String(data: data, encoding: .utf8), text.hasPrefix("o:"),
              let offset = Int(text.dropFirst(2)), offset >= 0 else {
            throw APIError.validationFailed("cursor is not one this server gave")
        }
        return offset
    }
}
