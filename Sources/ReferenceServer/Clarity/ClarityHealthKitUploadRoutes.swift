import ClarityCore
import Foundation
import Hummingbird

/// CLARITY's HealthKit upload API: `POST /api/v1/healthkit_upload` takes a (large) JSON
/// batch of samples and answers 202 with the upload's id and `queued`;
/// `GET /api/v1/healthkit_upload/{id}/status` follows its processing. A user uploads only
/// their own samples (403 for another `userId`) and reads only their own uploads (404).
struct ClarityHealthKitUploadRoutes: Sendable {
    /// The largest upload read.
    static let maximumUploadBytes = 64 << 20

    let store: ClarityHealthStore

    /// Adds the routes to a group mounted at `/api`, behind authentication.
    func register(on api: RouterGroup<ReferenceRequestContext>) {
        api.post("v1/healthkit_upload") { request, context in
            let userId = try context.requireUserId()
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: Self.maximumUploadBytes)
            } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
                throw APIError.payloadTooLarge("an upload of at most \(Self.maximumUploadBytes) bytes is accepted")
            }
            let upload: HealthKitUploadRequest
            do {
                upload = try APIJSON.makeDecoder().decode(HealthKitUploadRequest.self, from: Data(body.readableBytesView))
            } catch {
                throw APIError.badRequest("the upload is not a HealthKit upload document: \(error)")
            }
            guard upload.userId == userId else {
                throw APIError(status: .forbidden, code: "forbidden", message: "cannot upload data for a different user")
            }
            let now = Date()
            let samples = upload.quantitySamples.count + upload.categorySamples.count
            let id = await store.acceptUpload(samples: samples, ownerId: userId, at: now)
            let response = HealthKitUploadResponse(
                uploadId: id, status: .queued, queuedAt: now,
                samplesReceived: ["quantitySamples": upload.quantitySamples.count, "categorySamples": upload.categorySamples.count],
                bytesReceived: body.readableBytes, message: "queued \(samples) samples for processing"
            )
            return try Response.json(response, status: .accepted, headers: [.location: "/api/v1/healthkit_upload/\(id)/status"])
        }
        api.get("v1/healthkit_upload/{id}/status") { _, context in
            let id = context.parameters.get("id") ?? ""
            guard let status = await store.uploadStatus(id: id, ownerId: try context.requireUserId(), at: Date()) else {
                throw APIError.notFound("no upload \(id)")
            }
            return try Response.json(status, headers: [.cacheControl: "no-store"])
        }
    }
}
