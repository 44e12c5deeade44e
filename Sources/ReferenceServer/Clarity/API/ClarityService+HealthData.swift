import ClarityOpenAPI
import Foundation
import OpenAPIRuntime

/// CLARITY's health data, as the backend's document gives it:
///
/// - `POST /api/v1/health-data/` takes a `HealthDataUpload` for the signed-in user (another
///   user's `user_id` is 403), 1 to 1,000 metrics, and answers 201 `HealthDataResponse` with a
///   `Location`. With an `Idempotency-Key`, a repeat answers the first answer again and stores
///   nothing new (``ClarityIdempotencyMiddleware``). The body may come gzipped.
/// - `GET /api/v1/health-data/?limit&cursor&data_type&start_date&end_date` (or `offset`
///   instead of `cursor`) answers a cursor page `{data, pagination, links}`, oldest first; the
///   cursor is opaque (`pagination.next_cursor`).
/// - `GET /api/v1/health-data/processing/{processing_id}`: how a batch's processing stands.
/// - `DELETE /api/v1/health-data/{processing_id}`: deletes a batch and its metrics.
/// - `GET /api/v1/health-data/health`: the service's health.
extension ClarityService {
    func uploadHealthDataApiV1HealthDataPost(_ input: Operations.UploadHealthDataApiV1HealthDataPost.Input) async throws -> Operations.UploadHealthDataApiV1HealthDataPost.Output {
        let userId = try ClarityCall.userId()
        guard case .json(let upload) = input.body else { throw APIError.requestInvalid("missing", at: ["body"], "Field required") }
        guard upload.userId == userId else {
            throw APIError(status: .forbidden, code: "forbidden", message: "cannot upload health data for a different user")
        }
        guard (1...Self.maximumMetrics).contains(upload.metrics.count) else {
            throw APIError.requestInvalid("value_error", at: ["body", "metrics"], "a batch holds 1 to \(Self.maximumMetrics) metrics")
        }
        let now = Date()
        let processing = await health.acceptMetrics(upload.metrics, ownerId: userId, at: now)
        let answer = Components.Schemas.HealthDataResponse(
            acceptedMetrics: upload.metrics.count, estimatedProcessingTime: 0,
            message: "accepted \(upload.metrics.count) metrics for processing", processingId: processing.processingId,
            rejectedMetrics: 0, status: processing.status == .completed ? "completed" : "processing",
            syncToken: upload.syncToken, timestamp: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)), validationErrors: []
        )
        try ClarityCall.running().respond(.location, "/api/v1/health-data/processing/\(processing.processingId)")
        return .created(.init(body: .json(answer)))
    }

    func listHealthDataApiV1HealthDataGet(_ input: Operations.ListHealthDataApiV1HealthDataGet.Input) async throws -> Operations.ListHealthDataApiV1HealthDataGet.Output {
        let userId = try ClarityCall.userId()
        let query = input.query
        let limit = query.limit ?? 50
        guard (1...Self.maximumHealthDataPage).contains(limit) else {
            throw Self.outOfRange("limit", "limit must be between 1 and \(Self.maximumHealthDataPage)")
        }
        let offset: Int
        if let cursor = query.cursor {
            offset = try Self.offset(cursor: cursor)
        } else {
            offset = query.offset ?? 0
            guard offset >= 0 else { throw Self.outOfRange("offset", "offset must not be negative") }
        }
        let page = await health.metrics(ownerId: userId, type: query.dataType, from: query.startDate, through: query.endDate, offset: offset, limit: limit)
        let data = try page.items.map { try JSONDecoder().decode(OpenAPIObjectContainer.self, from: APIJSON.makeEncoder().encode($0)) }
        func link(_ cursor: String?) -> String {
            var items = ["limit=\(limit)"]
            if let cursor { items.append("cursor=\(cursor)") }
            if let type = query.dataType { items.append("data_type=\(type)") }
            return "/api/v1/health-data/?" + items.joined(separator: "&")
        }
        let next = page.nextOffset.map(Self.cursor(offset:))
        let previous = offset > 0 ? Self.cursor(offset: max(0, offset - limit)) : nil
        let answer = Components.Schemas.PaginatedResponseDictStrAny(
            data: data,
            links: .init(first: link(nil), next: next.map(link), previous: previous.map(link), _self: link(query.cursor)),
            pagination: .init(hasNext: next != nil, hasPrevious: offset > 0, nextCursor: next, pageSize: limit, previousCursor: previous, totalCount: page.totalCount)
        )
        try ClarityCall.running().respond(.cacheControl, "no-store")
        return .ok(.init(body: .json(answer)))
    }

    func getProcessingStatusApiV1HealthDataProcessingProcessingIdGet(
        _ input: Operations.GetProcessingStatusApiV1HealthDataProcessingProcessingIdGet.Input
    ) async throws -> Operations.GetProcessingStatusApiV1HealthDataProcessingProcessingIdGet.Output {
        let id = input.path.processingId
        guard let status = await health.batchStatus(id: id, ownerId: try ClarityCall.userId(), at: Date()) else {
            throw APIError.notFound("no health data batch \(id)")
        }
        let share = status.totalMetrics == 0 ? 1 : Double(status.processedMetrics) / Double(status.totalMetrics)
        try ClarityCall.running().respond(.cacheControl, "no-store")
        return .ok(.init(body: .json(ClarityWire.object([
            "processing_id": status.processingId, "status": status.status.rawValue, "progress": share,
            "total_metrics": status.totalMetrics, "processed_metrics": status.processedMetrics, "message": status.message,
            "created_at": ClarityWire.timestamp(status.createdAt), "updated_at": status.completedAt.map(ClarityWire.timestamp),
        ]))))
    }

    func deleteHealthDataApiV1HealthDataProcessingIdDelete(
        _ input: Operations.DeleteHealthDataApiV1HealthDataProcessingIdDelete.Input
    ) async throws -> Operations.DeleteHealthDataApiV1HealthDataProcessingIdDelete.Output {
        let id = input.path.processingId
        guard let deleted = await health.deleteBatch(id: id, ownerId: try ClarityCall.userId()) else {
            throw APIError.notFound("no health data batch \(id)")
        }
        return .ok(.init(body: .json(.init(additionalProperties: [
            "message": "deleted \(deleted) metrics", "processing_id": id, "status": "deleted",
        ]))))
    }

    func healthCheckDetailedApiV1HealthDataHealthGet(
        _ input: Operations.HealthCheckDetailedApiV1HealthDataHealthGet.Input
    ) async throws -> Operations.HealthCheckDetailedApiV1HealthDataHealthGet.Output {
        _ = try ClarityCall.userId()
        try ClarityCall.running().respond(.cacheControl, "no-store")
        return .ok(.init(body: .json(ClarityWire.object([
            "status": "healthy", "service": "health-data-api", "timestamp": ClarityWire.timestamp(Date()), "version": "1.0.0",
            "database": "connected", "authentication": "available",
            "metrics": ["uptime_seconds": Int(Date().timeIntervalSince(startedAt)), "metrics_stored": await health.metricCount] as [String: (any Sendable)?],
        ]))))
    }

    /// The opaque cursor of an offset.
    private static func cursor(offset: Int) -> String {
        Data("o:\(offset)".utf8).base64EncodedString()
    }

    /// The offset a cursor names.
    /// - Throws: ``APIError`` 422 for a cursor the server did not make.
    private static func offset(cursor: String) throws -> Int {
        guard let data = Data(base64Encoded: cursor), let text = String(data: data, encoding: .utf8), text.hasPrefix("o:"),
              let offset = Int(text.dropFirst(2)), offset >= 0 else {
            throw outOfRange("cursor", "cursor is not one this server gave")
        }
        return offset
    }
}
