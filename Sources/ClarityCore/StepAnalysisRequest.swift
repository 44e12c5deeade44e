public import Foundation

/// Step counts to analyse as proxy actigraphy (`POST /api/v1/pat/step-analysis`): one count
/// per sample, each with its timestamp, usually one sample a minute from a phone or watch.
public struct StepAnalysisRequest: Codable, Sendable, Hashable {
    /// The step count of each sample, zero or more.
    public var stepCounts: [Int]
    /// When each sample starts; as many as ``stepCounts``, in order.
    public var timestamps: [Date]

    /// Makes a request. The two arrays must be the same length (the server answers 422 otherwise).
    public init(stepCounts: [Int], timestamps: [Date]) {
        self.stepCounts = stepCounts
        self.timestamps = timestamps
    }

    /// Samples a fixed interval apart, starting at `start`.
    /// - Parameters:
    ///   - stepCounts: The counts.
    ///   - start: When the first sample starts.
    ///   - interval: The time between samples (a minute by default).
    public init(stepCounts: [Int], start: Date, interval: TimeInterval = 60) {
        self.init(stepCounts: stepCounts, timestamps: stepCounts.indices.map { start.addingTimeInterval(Double($0) * interval) })
    }
}

/// Raw actigraphy to analyse directly (`POST /api/v1/pat/analysis`).
public struct ActigraphyAnalysisRequest: Codable, Sendable, Hashable {
    /// The activity samples, in order.
    public var dataPoints: [ActigraphyDataPoint]
    /// Samples per minute.
    public var samplingRate: Double
    /// How many hours the samples cover.
    public var durationHours: Int

    /// Makes a request.
    public init(dataPoints: [ActigraphyDataPoint], samplingRate: Double = 1, durationHours: Int) {
        self.dataPoints = dataPoints
        self.samplingRate = samplingRate
        self.durationHours = durationHours
    }
}

/// One actigraphy sample: movement intensity at a moment.
public struct ActigraphyDataPoint: Codable, Sendable, Hashable {
    /// When the sample was taken.
    public var timestamp: Date
    /// The activity count, zero or more.
    public var value: Double

    /// Makes a sample.
    public init(timestamp: Date, value: Double) {
        self.timestamp = timestamp
        self.value = value
    }
}
