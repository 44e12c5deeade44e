import Foundation

/// One HealthKit sample as the iOS app exports it: a quantity (heart rate, steps) or a
/// category (sleep stage) over a time span.
struct HealthKitSample: Codable, Sendable, Hashable {
    /// The sample's HealthKit UUID.
    var identifier: String
    /// The HealthKit type, such as `HKQuantityTypeIdentifierHeartRate`.
    var type: String
    /// The measured value (for a category sample, its raw value).
    var value: Double
    /// The unit, such as `count/min`; `nil` for category samples.
    var unit: String?
    /// When the measurement began.
    var startDate: Date
    /// When it ended.
    var endDate: Date
    /// The app or device that recorded it.
    var sourceName: String?

    /// Makes a sample.
    init(identifier: String, type: String, value: Double, unit: String?, startDate: Date, endDate: Date, sourceName: String? = nil) {
        self.identifier = identifier
        self.type = type
        self.value = value
        self.unit = unit
        self.startDate = startDate
        self.endDate = endDate
        self.sourceName = sourceName
    }
}

/// The body of `POST /api/v1/healthkit_upload`: a batch of HealthKit samples, often large,
/// which the app writes to a file and uploads with progress.
struct HealthKitUploadRequest: Codable, Sendable, Hashable {
    /// The user the samples belong to: the signed-in user.
    var userId: String
    /// Quantity samples (heart rate, steps, energy).
    var quantitySamples: [HealthKitSample]
    /// Category samples (sleep analysis, stand hours).
    var categorySamples: [HealthKitSample]
    /// A token from the previous sync, so the server can tell what is new.
    var syncToken: String?

    /// Makes an upload.
    init(userId: String, quantitySamples: [HealthKitSample] = [], categorySamples: [HealthKitSample] = [], syncToken: String? = nil) {
        self.userId = userId
        self.quantitySamples = quantitySamples
        self.categorySamples = categorySamples
        self.syncToken = syncToken
    }
}
