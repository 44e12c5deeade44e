import Foundation

/// Computes a PAT-style analysis from activity samples, deterministically: the same samples
/// always give the same results.
///
/// The sleep measures come from the samples themselves (runs of rest at low activity); the
/// scores a real model would infer (rhythm, risk) are drawn from ``SplitMix64`` seeded by the
/// server's seed and the samples, so they are stable but not meaningful.
struct ActigraphySynthesizer: Sendable {
    /// A sample at or below this value counts as rest.
    static let restThreshold = 5.0

    let seed: UInt64

    /// Analyses samples taken `samplesPerMinute` times a minute.
    func analyse(_ values: [Double], samplesPerMinute: Double) -> ActigraphyAnalysis {
        var random = SplitMix64(seed: seed ^ Self.fingerprint(values), text: "pat", number: values.count)
        let minutesPerSample = 1 / max(samplesPerMinute, 0.001)
        let resting = values.map { $0 <= Self.restThreshold }
        let restRuns = Self.runs(of: true, in: resting).filter { Double($0) * minutesPerSample >= 60 }
        let days = max(1, Double(values.count) * minutesPerSample / 1_440)
        let asleepMinutes = Double(restRuns.reduce(0, +)) * minutesPerSample
        let inBedMinutes = asleepMinutes + Double(restRuns.count) * random.nextDouble(in: 10...45)
        let transitions = zip(resting, resting.dropFirst()).filter { $0 != $1 }.count
        let fragmentation = values.count > 1 ? min(1, Double(transitions) / Double(values.count - 1) * 10) : 0
        let efficiency = inBedMinutes > 0 ? asleepMinutes / inBedMinutes * 100 : 0
        let totalSleepHours = asleepMinutes / 60 / days
        let rhythm = max(0, min(1, 1 - fragmentation * 0.6 + random.nextDouble(in: -0.1...0.1)))
        let risk = max(0, min(1, (1 - rhythm) * 0.5 + (totalSleepHours < 6 ? 0.2 : 0) + random.nextDouble(in: 0...0.15)))
        let coverage = min(1, Double(values.count) * minutesPerSample / 10_080)
        return ActigraphyAnalysis(
            sleepEfficiency: Self.round(efficiency),
            sleepOnsetLatency: Self.round(random.nextDouble(in: 5...35)),
            wakeAfterSleepOnset: Self.round(random.nextDouble(in: 10...60)),
            totalSleepTime: Self.round(totalSleepHours),
            circadianRhythmScore: Self.round(rhythm),
            activityFragmentation: Self.round(fragmentation),
            depressionRiskScore: Self.round(risk),
            confidenceScore: Self.round(0.5 + 0.45 * coverage),
            sampleCount: values.count,
            clinicalInsights: Self.notes(efficiency: efficiency, sleepHours: totalSleepHours, rhythm: rhythm, fragmentation: fragmentation)
        )
    }

    private static func notes(efficiency: Double, sleepHours: Double, rhythm: Double, fragmentation: Double) -> [String] {
        var notes: [String] = []
        notes.append(efficiency >= 85 ? "Sleep efficiency is in the healthy range." : "Sleep efficiency is below 85%: time in bed is often spent awake.")
        if sleepHours < 7 { notes.append("Average sleep is under 7 hours a night.") }
        notes.append(rhythm >= 0.7 ? "The daily rhythm is steady." : "The daily rhythm is irregular.")
        if fragmentation > 0.5 { notes.append("Activity is fragmented: many short switches between rest and movement.") }
        return notes
    }

    /// The lengths of the runs of `value`.
    private static func runs(of value: Bool, in flags: [Bool]) -> [Int] {
        var runs: [Int] = []
        var current = 0
        for flag in flags {
            if flag == value {
                current += 1
            } else if current > 0 {
                runs.append(current)
                current = 0
            }
        }
        if current > 0 { runs.append(current) }
        return runs
    }

    /// A stable 64-bit digest of the samples (FNV-1a over their bit patterns).
    private static func fingerprint(_ values: [Double]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for value in values {
            hash ^= value.bitPattern
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }

    private static func round(_ value: Double) -> Double {
        (value * 100).rounded() / 100
    }
}
