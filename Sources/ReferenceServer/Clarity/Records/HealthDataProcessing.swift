import Foundation

/// How processing a batch of health metrics stands, as the reference server keeps it (what
/// `POST /api/v1/health-data/` and `GET /api/v1/health-data/processing/{processing_id}` report).
struct HealthDataProcessing: Codable, Sendable, Hashable, Identifiable {
    /// The batch's processing id.
    var processingId: String
    /// Where it stands.
    var status: HealthDataProcessingState
    /// How many metrics the batch holds.
    var totalMetrics: Int
    /// How many of them have been processed.
    var processedMetrics: Int
    /// When the batch was accepted.
    var createdAt: Date
    /// When processing finished, once it has.
    var completedAt: Date?
    /// A note from the service.
    var message: String?

    /// The processing id.
    var id: String { processingId }

    /// Makes a status.
    init(
        processingId: String, status: HealthDataProcessingState, totalMetrics: Int, processedMetrics: Int,
        createdAt: Date, completedAt: Date? = nil, message: String? = nil
    ) {
        self.processingId = processingId
        self.status = status
        self.totalMetrics = totalMetrics
        self.processedMetrics = processedMetrics
        self.createdAt = createdAt
        self.completedAt = completedAt
        self.message = message
    }
}

/// Where processing a batch of metrics stands.
enum HealthDataProcessingState: String, Codable, Sendable, Hashable {
    /// Accepted, not yet processed.
    case processing
    /// Processed; the metrics are in the user's health data.
    case completed
    /// Could not be processed.
    case failed
}
