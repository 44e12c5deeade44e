public import ClarityOpenAPI

/// A health metric's type, as CLARITY names it: `metric_type`, with an ``unknown(_:)`` case so
/// that a type the service adds later reads as what it is instead of failing the page.
public enum HealthMetricKind: Sendable, Hashable, RawRepresentable, CaseIterable {
    // The document's `HealthMetricType` values, in its order: `heart_rate`, `heart_rate_variability`, …
    /// One of the document's types (each named by its `rawValue`).
    case heartRate, heartRateVariability, bloodPressure, bloodOxygen, respiratoryRate, sleepAnalysis
    case activityLevel, stressIndicators, moodAssessment, cognitiveMetrics, environmental, bodyTemperature, bloodGlucose
    /// A type this version does not know, kept as the service wrote it.
    case unknown(String)

    /// The known types, as the document lists them.
    public static let allCases: [HealthMetricKind] = [
        .heartRate, .heartRateVariability, .bloodPressure, .bloodOxygen, .respiratoryRate, .sleepAnalysis,
        .activityLevel, .stressIndicators, .moodAssessment, .cognitiveMetrics, .environmental, .bodyTemperature, .bloodGlucose,
    ]

    /// The name on the wire, such as `heart_rate`.
    public var rawValue: String {
        switch self {
        case .heartRate: "heart_rate"
        case .heartRateVariability: "heart_rate_variability"
        case .bloodPressure: "blood_pressure"
        case .bloodOxygen: "blood_oxygen"
        case .respiratoryRate: "respiratory_rate"
        case .sleepAnalysis: "sleep_analysis"
        case .activityLevel: "activity_level"
        case .stressIndicators: "stress_indicators"
        case .moodAssessment: "mood_assessment"
        case .cognitiveMetrics: "cognitive_metrics"
        case .environmental: "environmental"
        case .bodyTemperature: "body_temperature"
        case .bloodGlucose: "blood_glucose"
        case .unknown(let name): name
        }
    }

    /// Reads a name; one that is not among ``allCases`` is ``unknown(_:)``.
    public init(rawValue: String) {
        self = Self.allCases.first { $0.rawValue == rawValue } ?? .unknown(rawValue)
    }
}

/// Where processing of an upload or a batch stands, as CLARITY's `ProcessingStatus` names it,
/// with an ``unknown(_:)`` case for a status the service adds later.
public enum ProcessingState: Sendable, Hashable, RawRepresentable {
    /// One of the document's `ProcessingStatus` values (`received`, `processing`, `completed`,
    /// `failed`, `requires_review`); the service's `queued`/`pending` read as `received`,
    /// `in_progress` as `processing`, `complete`/`done` as `completed`, `error` as `failed`.
    case received, processing, completed, failed, requiresReview
    /// A status this version does not know, kept as the service wrote it.
    case unknown(String)

    /// The name on the wire, such as `requires_review`.
    public var rawValue: String {
        switch self {
        case .received: "received"
        case .processing: "processing"
        case .completed: "completed"
        case .failed: "failed"
        case .requiresReview: "requires_review"
        case .unknown(let name): name
        }
    }

    /// Reads a name, case-insensitively; an unknown one is ``unknown(_:)``.
    public init(rawValue: String) {
        switch rawValue.lowercased() {
        case "received", "queued", "pending": self = .received
        case "processing", "in_progress", "running": self = .processing
        case "completed", "complete", "done", "succeeded": self = .completed
        case "failed", "error": self = .failed
        case "requires_review": self = .requiresReview
        default: self = .unknown(rawValue)
        }
    }

    /// Whether processing has ended, one way or the other.
    public var isFinished: Bool {
        switch self {
        case .completed, .failed, .requiresReview: true
        case .received, .processing, .unknown: false
        }
    }
}

extension Components.Schemas.HealthMetric {
    /// `metricType` as a ``HealthMetricKind``.
    public var kind: HealthMetricKind { HealthMetricKind(rawValue: metricType) }
}

extension Components.Schemas.HealthDataResponse {
    /// `status` as a ``ProcessingState``.
    public var state: ProcessingState { ProcessingState(rawValue: status) }
}

extension Components.Schemas.AnalysisResponse {
    /// `status` as a ``ProcessingState``.
    public var state: ProcessingState { ProcessingState(rawValue: status) }
}

extension Components.Schemas.PATAnalysisResponse {
    /// `status` as a ``ProcessingState``.
    public var state: ProcessingState { ProcessingState(rawValue: status) }
}
