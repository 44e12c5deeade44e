import Foundation

/// One health measurement in the user's health data (`/api/v1/health-data`).
struct HealthMetric: Codable, Sendable, Hashable, Identifiable {
    /// The metric's id, given by the server; `nil` in a submission.
    var metricId: String?
    /// What was measured.
    var type: HealthMetricType
    /// The value, in ``unit``.
    var value: Double
    /// The unit, such as `bpm` or `steps`.
    var unit: String
    /// When it was measured.
    var timestamp: Date
    /// The device or app that measured it, such as `apple_watch`.
    var source: String?

    /// The metric's id, or an empty string before the server has given it one.
    var id: String { metricId ?? "" }

    /// Makes a metric.
    init(metricId: String? = nil, type: HealthMetricType, value: Double, unit: String, timestamp: Date, source: String? = nil) {
        self.metricId = metricId
        self.type = type
        self.value = value
        self.unit = unit
        self.timestamp = timestamp
        self.source = source
    }
}

/// The kinds of measurement the health data API stores.
enum HealthMetricType: String, Codable, Sendable, Hashable, CaseIterable {
    /// Beats per minute.
    case heartRate = "heart_rate"
    /// Heart rate variability, in milliseconds.
    case heartRateVariability = "heart_rate_variability"
    /// Steps counted.
    case stepCount = "step_count"
    /// Minutes asleep.
    case sleepDuration = "sleep_duration"
    /// Breaths per minute.
    case respiratoryRate = "respiratory_rate"
    /// Active energy, in kilocalories.
    case activeEnergy = "active_energy"
}
