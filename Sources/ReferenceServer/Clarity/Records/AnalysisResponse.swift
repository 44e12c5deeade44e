import Foundation

/// A PAT (Pretrained Actigraphy Transformer) analysis as the reference server keeps it: submitted,
/// processing, then completed with its results or failed.
///
/// A completed analysis never changes, and the server says so
/// (`Cache-Control: private, max-age=86400, immutable`); one still processing is `no-store`.
struct AnalysisResponse: Codable, Sendable, Hashable, Identifiable {
    /// The analysis id, for ``ActigraphyAnalysis`` look-ups and insight generation.
    var processingId: String
    /// Where the analysis stands.
    var status: AnalysisStatus
    /// What was analysed.
    var kind: AnalysisKind
    /// When it was submitted.
    var createdAt: Date
    /// When it finished, once it has.
    var completedAt: Date?
    /// The results, once completed.
    var analysis: ActigraphyAnalysis?
    /// A note from the service, such as why it failed.
    var message: String?

    /// The analysis id.
    var id: String { processingId }

    /// Makes a response.
    init(
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
enum AnalysisStatus: String, Codable, Sendable, Hashable {
    /// Submitted; results are not ready.
    case processing
    /// Finished; results are in ``AnalysisResponse/analysis``.
    case completed
    /// Did not finish; ``AnalysisResponse/message`` says why.
    case failed
}

/// What a PAT analysis was run on.
enum AnalysisKind: String, Codable, Sendable, Hashable {
    /// Step counts converted to proxy actigraphy.
    case stepData = "step_data"
    /// Actigraphy samples given directly.
    case actigraphy
}

/// The results of a PAT analysis: sleep and activity measures, with the model's confidence.
struct ActigraphyAnalysis: Codable, Sendable, Hashable {
    /// Time asleep as a share of time in bed, in percent (0–100).
    var sleepEfficiency: Double
    /// Minutes from lying down to falling asleep.
    var sleepOnsetLatency: Double
    /// Minutes awake after first falling asleep.
    var wakeAfterSleepOnset: Double
    /// Hours asleep per night, on average.
    var totalSleepTime: Double
    /// How regular the daily rhythm is (0–1, higher is steadier).
    var circadianRhythmScore: Double
    /// How broken up activity is (0–1, higher is more fragmented).
    var activityFragmentation: Double
    /// A screening score for depressive patterns (0–1); not a diagnosis.
    var depressionRiskScore: Double
    /// The model's confidence in these results (0–1); lower for short recordings.
    var confidenceScore: Double
    /// How many samples were analysed.
    var sampleCount: Int
    /// Plain-language notes on the results.
    var clinicalInsights: [String]

    /// Makes results.
    init(
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
