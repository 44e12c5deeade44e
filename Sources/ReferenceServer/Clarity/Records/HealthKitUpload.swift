import Foundation

/// The answer to `POST /api/v1/healthkit_upload` (202): the upload is stored and queued for
/// processing; follow it with its ``uploadId``.
struct HealthKitUploadResponse: Codable, Sendable, Hashable {
    /// The upload's id, for `GET /api/v1/healthkit_upload/{uploadId}/status`.
    var uploadId: String
    /// Where it stands: ``HealthKitUploadState/queued`` when accepted.
    var status: HealthKitUploadState
    /// When it was queued.
    var queuedAt: Date
    /// How many samples of each kind arrived (`quantitySamples`, `categorySamples`).
    var samplesReceived: [String: Int]
    /// How many bytes the server received.
    var bytesReceived: Int
    /// A note from the service.
    var message: String

    /// Makes a response.
    init(uploadId: String, status: HealthKitUploadState, queuedAt: Date, samplesReceived: [String: Int], bytesReceived: Int, message: String) {
        self.uploadId = uploadId
        self.status = status
        self.queuedAt = queuedAt
        self.samplesReceived = samplesReceived
        self.bytesReceived = bytesReceived
        self.message = message
    }
}

/// `GET /api/v1/healthkit_upload/{uploadId}/status`: how far processing an upload has come.
struct HealthKitUploadStatus: Codable, Sendable, Hashable {
    /// The upload's id.
    var uploadId: String
    /// Where it stands.
    var status: HealthKitUploadState
    /// The share processed, from 0 to 1.
    var progress: Double
    /// How many samples have been processed.
    var samplesProcessed: Int
    /// A note from the service.
    var message: String
    /// When the status last changed.
    var lastUpdated: Date

    /// Makes a status.
    init(uploadId: String, status: HealthKitUploadState, progress: Double, samplesProcessed: Int, message: String, lastUpdated: Date) {
        self.uploadId = uploadId
        self.status = status
        self.progress = progress
        self.samplesProcessed = samplesProcessed
        self.message = message
        self.lastUpdated = lastUpdated
    }
}

/// Where a HealthKit upload stands.
enum HealthKitUploadState: String, Codable, Sendable, Hashable {
    /// Stored, waiting to be processed.
    case queued
    /// Being processed.
    case processing
    /// Processed; its samples are in the user's health data.
    case completed
    /// Could not be processed.
    case failed
}
