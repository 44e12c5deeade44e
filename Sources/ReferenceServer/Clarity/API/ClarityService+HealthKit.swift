import ClarityOpenAPI
import Foundation
import OpenAPIRuntime

/// CLARITY's HealthKit uploads, as the backend's document gives them: `POST /api/v1/healthkit/`
/// takes a `HealthKitUploadRequest` for the signed-in user (another user's `user_id` is 403),
/// up to ``ClarityService/maximumHealthKitUploadBytes`` decoded and possibly gzipped, and
/// answers 202 with a `HealthKitUploadResponse`; `GET /api/v1/healthkit/status/{upload_id}`
/// answers how processing stands: `upload_id`, `status`, `progress`, `message`,
/// `samples_processed` and `updated_at`.
extension ClarityService {
    func uploadHealthkitDataApiV1HealthkitPost(_ input: Operations.UploadHealthkitDataApiV1HealthkitPost.Input) async throws -> Operations.UploadHealthkitDataApiV1HealthkitPost.Output {
        let userId = try ClarityCall.userId()
        guard case .json(let upload) = input.body else { throw APIError.requestInvalid("missing", at: ["body"], "Field required") }
        guard upload.userId == userId else {
            throw APIError(status: .forbidden, code: "forbidden", message: "cannot upload data for a different user")
        }
        let now = Date()
        let counts = [
            "quantity_samples": upload.quantitySamples?.count ?? 0, "category_samples": upload.categorySamples?.count ?? 0,
            "workouts": upload.workouts?.count ?? 0, "correlation_samples": upload.correlationSamples?.count ?? 0,
        ]
        let samples = counts.values.reduce(0, +)
        let id = await health.acceptUpload(samples: samples, ownerId: userId, at: now)
        let receipt = Components.Schemas.HealthKitUploadResponse(
            message: "queued \(samples) samples for processing", queuedAt: ClarityWire.timestamp(now),
            samplesReceived: .init(additionalProperties: counts), status: "queued", uploadId: id
        )
        try ClarityCall.running().respond(.location, "/api/v1/healthkit/status/\(id)")
        return .accepted(.init(body: .json(receipt)))
    }

    func getUploadStatusApiV1HealthkitStatusUploadIdGet(_ input: Operations.GetUploadStatusApiV1HealthkitStatusUploadIdGet.Input) async throws -> Operations.GetUploadStatusApiV1HealthkitStatusUploadIdGet.Output {
        let id = input.path.uploadId
        guard let status = await health.uploadStatus(id: id, ownerId: try ClarityCall.userId(), at: Date()) else {
            throw APIError.notFound("no upload \(id)")
        }
        try ClarityCall.running().respond(.cacheControl, "no-store")
        return .ok(.init(body: .json(ClarityWire.object([
            "upload_id": status.uploadId, "status": status.status.rawValue, "progress": status.progress,
            "message": status.message, "samples_processed": status.samplesProcessed,
            "updated_at": ClarityWire.timestamp(status.lastUpdated),
        ]))))
    }
}
