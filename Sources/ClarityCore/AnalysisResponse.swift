public import Foundation

/// A PAT (Pretrained Actigraphy Transformer) analysis as the API reports it: submitted,
/// processing, then completed with its results or failed.
///
/// A completed analysis never changes, and the server says so
/// (`Cache-Control: private, max-age=86400, immutable`); one still processing is `no-store`.
public struct AnalysisResponse: Codable, Sendable, Hashable, Identifiable {
    /// The analysis id, for ``ActigraphyAnalysis`` look-ups and insight generation.
    public var processingId: String
    /// Where the analysis stands.
    public var status: AnalysisStatus
    /// What was analysed.
    public var kind: AnalysisKind
    /// When it was submitted.
    public var createdAt: Date
    /// When it finished, once it has.
    public var completedAt: Date?
    /// The results, once completed.
    public var analysis: ActigraphyAnalysis?
    /// A note from the service, such as why it failed.
    public var message: String?

    /// The analysis id.
    public var id: String { processingId }

    /// Makes a response.
    public init(
        processingId: String, status: AnalysisStatus, kind: AnalysisKind, createdAt: Date,
        completedAt: Date? = nil, analysis: ActigraphyAnalysis? = nil, message: String? = nil
    ) {
        self.processingId = processingId
        self.status = status
        self.kind = kind
        self.createdAt = createdAt
        self.completedAt = completedAt
        self.analysis = analysis
        self.message = message
    }
}

/// Where a PAT analysis stands.
public enum AnalysisStatus: String, Codable, Sendable, Hashable {
    /// Submitted; results are not ready.
    case processing
    /// Finished; results are in ``AnalysisResponse/analysis``.
    case completed
    /// Did not finish; ``AnalysisResponse/message`` says why.
    case failed
}

/// What a PAT analysis was run on.
public enum AnalysisKind: String, Codable, Sendable, Hashable {
    /// Step counts converted to proxy actigraphy.
    case stepData = "step_data"
    /// Actigraphy samples given directly.
    case actigraphy
}

/// The results of a PAT analysis: sleep and activity measures, with the model's confidence.
public struct ActigraphyAnalysis: Codable, Sendable, Hashable {
    /// Time asleep as a share of time in bed, in percent (0–100).
    public var sleepEfficiency: Double
    /// Minutes from lying down to falling asleep.
    public var sleepOnsetLatency: Double
    /// Minutes awake after first falling asleep.
    public var wakeAfterSleepOnset: Double
    /// Hours asleep per night, on average.
    public var totalSleepTime: Double
    /// How regular the daily rhythm is (0–1, higher is steadier).
    public var circadianRhythmScore: Double
    /// How broken up activity is (0–1, higher is more fragmented).
    public var activityFragmentation: Double
    /// A screening score for depressive patterns (0–1); not a diagnosis.
    public var depressionRiskScore: Double
    /// The model's confidence in these results (0–1); lower for short recordings.
    public var confidenceScore: Double
    /// How many samples were analysed.
    public var sampleCount: Int
    /// Plain-language notes on the results.
    public var clinicalInsights: [String]

    /// Makes results.
    public init(
        sleepEfficiency: Double, sleepOnsetLatency: Double, wakeAfterSleepOnset: Double, totalSleepTime: Double,
        circadianRhythmScore: Double, activityFragmentation: Double, depressionRiskScore: Double,
        confidenceScore: Double, sampleCount: Int, clinicalInsights: [String]
    ) {
        self.sleepEfficiency = sleepEfficiency
        self.sleepOnsetLatency = sleepOnsetLatency
        self.wakeAfterSleepOnset = wakeAfterSleepOnset
        self.totalSleepTime = totalSleepTime
        self.circadianRhythmScore = circadianRhythmScore
        self.activityFragmentation = activityFragmentation
        self.depressionRiskScore = depressionRiskScore
        self.confidenceScore = confidenceScore
        self.sampleCount = sampleCount
        self.clinicalInsights = clinicalInsights
    }
}
