import Foundation

/// Writes an insight from analysis results with templates: the same results and type always
/// give the same text.
struct InsightSynthesizer: Sendable {
    /// The narrative, key points and recommendations for results.
    func compose(
        from analysis: ActigraphyAnalysis, type: InsightType, includeRecommendations: Bool
    ) -> (narrative: String, keyInsights: [String], recommendations: [String]) {
        let sleep = String(format: "%.1f", analysis.totalSleepTime)
        // Inline results are the client's numbers, of any size: format them, never convert
        // them to `Int` (a value past Int's range would trap).
        let efficiency = String(format: "%.0f", analysis.sleepEfficiency)
        var points: [String] = []
        var advice: [String] = []
        if type == .comprehensive || type == .sleep {
            points.append("You slept \(sleep) hours a night at \(efficiency)% efficiency.")
            if analysis.totalSleepTime < 7 { advice.append("Aim for a consistent bedtime that allows 7–9 hours of sleep.") }
            if analysis.sleepEfficiency < 85 { advice.append("Keep the bed for sleep: get up after 20 minutes awake.") }
        }
        if type == .comprehensive || type == .activity {
            let level = analysis.activityFragmentation > 0.5 ? "fragmented" : "consolidated"
            points.append("Your activity was \(level) (fragmentation \(String(format: "%.2f", analysis.activityFragmentation))).")
            if analysis.activityFragmentation > 0.5 { advice.append("Plan longer blocks of movement instead of many short ones.") }
        }
        if type == .comprehensive || type == .circadian {
            let steadiness = analysis.circadianRhythmScore >= 0.7 ? "steady" : "irregular"
            points.append("Your daily rhythm was \(steadiness) (score \(String(format: "%.2f", analysis.circadianRhythmScore))).")
            if analysis.circadianRhythmScore < 0.7 { advice.append("Get daylight in the morning and keep wake-up times within an hour.") }
        }
        if advice.isEmpty { advice.append("Keep doing what you are doing: your patterns look healthy.") }
        let narrative = "Over \(analysis.sampleCount) samples, " + points.joined(separator: " ").prefix(1).lowercased()
            + points.joined(separator: " ").dropFirst()
        return (narrative, points, includeRecommendations ? advice : [])
    }
}
