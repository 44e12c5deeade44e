import ClarityOpenAPI
import Foundation
import Hummingbird

/// CLARITY's HealthKit uploads, as the backend's document gives them: `POST /api/v1/healthkit/`
/// takes a `HealthKitUploadRequest` for the signed-in user (another user's `user_id` is 403) and
/// answers 202 with a `HealthKitUploadResponse`; `GET /api/v1/healthkit/status/{upload_id}`
/// answers how processing stands, an object of `upload_id`, `status`, `progress`, `message`,
/// `samples_processed` and `updated_at`. The upload body may be gzipped.
struct ClarityHealthKitUploadRoutes: Sendable {
    /// The largest upload accepted, decoded.
    static let maximumUploadBytes = 64 << 20

    let store: ClarityHealthStore

    func register(on api: RouterGroup<ReferenceRequestContext>) {
        api.post("v1/healthkit") { request, context in
            let userId = try context.requireUserId()
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: Self.maximumUploadBytes)
            } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
                throw APIError.payloadTooLarge("an upload of at most \(Self.maximumUploadBytes) bytes is accepted")
            }
            let upload: Components.Schemas.HealthKitUploadRequest
            do {
                upload = try APIJSON.makeDecoder().decode(Components.Schemas.HealthKitUploadRequest.self, from: Data(body.readableBytesView))
            } catch {
                throw APIError.validationFailed("the upload is not a HealthKitUploadRequest: \(error)")
            }
            guard upload.userId == userId else {
                throw APIError(status: .forbidden, code: "forbidden", message: "cannot upload data for a different user")
            }
            let now = Date()
            let counts = [
                "quantity_samples": upload.quantitySamples?.count ?? 0, "category_samples": upload.categorySamples?.count ?? 0,
                "workouts": upload.workouts?.count ?? 0, "correlation_samples": upload.correlationSamples?.count ?? 0,
            ]
            let samples = counts.values.reduce(0, +)
            let id = await store.acceptUpload(samples: samples, ownerId: userId, at: now)
            let receipt = Components.Schemas.HealthKitUploadResponse(
                message: "queued \(samples) samples for processing", queuedAt: ClarityWire.timestamp(now),
                samplesReceived: .init(additionalProperties: counts), status: "queued", uploadId: id
            )
            return try Response.json(receipt, status: .accepted, headers: [.location: "/api/v1/healthkit/status/\(id)"])
        }
        api.get("v1/healthkit/status/{uploadId}") { _, context in
            let id = context.parameters.get("uploadId") ?? ""
            guard let status = await store.uploadStatus(id: id, ownerId: try context.requireUserId(), at: Date()) else {
                throw APIError.notFound("no upload \(id)")
            }
            return try Response.json(
                ClarityWire.object([
                    "upload_id": status.uploadId, "status": status.status.rawValue, "progress": status.progress,
                    "message": status.message, "samples_processed": status.samplesProcessed,
                    "updated_at": ClarityWire.timestamp(status.lastUpdated),
                ]),
                headers: [.cacheControl: "no-store"]
            )
        }
    }
}
