public import Foundation

/// One health measurement in the user's health data (`/api/v1/health-data`).
public struct HealthMetric: Codable, Sendable, Hashable, Identifiable {
    /// The metric's id, given by the server; `nil` in a submission.
    public var metricId: String?
    /// What was measured.
    public var type: HealthMetricType
    /// The value, in ``unit``.
    public var value: Double
    /// The unit, such as `bpm` or `steps`.
    public var unit: String
    /// When it was measured.
    public var timestamp: Date
    /// The device or app that measured it, such as `apple_watch`.
    public var source: String?

    /// The metric's id, or an empty string before the server has given it one.
    public var id: String { metricId ?? "" }

    /// Makes a metric.
    public init(metricId: String? = nil, type: HealthMetricType, value: Double, unit: String, timestamp: Date, source: String? = nil) {
        self.metricId = metricId
        self.type = type
        self.value = value
        self.unit = unit
        self.timestamp = timestamp
        self.source = source
    }
}

/// The kinds of measurement the health data API stores.
public enum HealthMetricType: String, Codable, Sendable, Hashable, CaseIterable {
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
