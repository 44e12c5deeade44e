public import Foundation

/// The body of `POST /api/v1/health-data`: a batch of metrics to store and process.
///
/// A write that may be queued offline and replayed: send it with an idempotency key, and a
/// repeat changes nothing on the server.
public struct HealthDataUpload: Codable, Sendable, Hashable {
    /// The metrics.
    public var metrics: [HealthMetric]
    /// Where they come from, such as `ios_app`.
    public var uploadSource: String
    /// When the app made the batch.
    public var clientTimestamp: Date

    /// Makes a batch.
    public init(metrics: [HealthMetric], uploadSource: String = "ios_app", clientTimestamp: Date) {
        self.metrics = metrics
        self.uploadSource = uploadSource
        self.clientTimestamp = clientTimestamp
    }
}

/// How processing a batch of metrics stands: the answer to `POST /api/v1/health-data` (201)
/// and to `GET /api/v1/health-data/processing/{processingId}`.
public struct HealthDataProcessing: Codable, Sendable, Hashable, Identifiable {
    /// The batch's processing id.
    public var processingId: String
    /// Where it stands.
    public var status: HealthDataProcessingState
    /// How many metrics the batch holds.
    public var totalMetrics: Int
    /// How many of them have been processed.
    public var processedMetrics: Int
    /// When the batch was accepted.
    public var createdAt: Date
    /// When processing finished, once it has.
    public var completedAt: Date?
    /// A note from the service.
    public var message: String?

    /// The processing id.
    public var id: String { processingId }

    /// Makes a status.
    public init(
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
public enum HealthDataProcessingState: String, Codable, Sendable, Hashable {
    /// Accepted, not yet processed.
    case processing
    /// Processed; the metrics are in the user's health data.
    case completed
    /// Could not be processed.
    case failed
}
