import Foundation

/// How far processing a HealthKit upload has come, as the reference server keeps it (what
/// `GET /api/v1/healthkit/status/{upload_id}` reports).
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
