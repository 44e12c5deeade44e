public import Foundation

/// One day's wellness record: fitness and fatigue from training load, and what the athlete
/// or their devices logged that morning.
public struct Wellness: Codable, Sendable, Hashable, Identifiable {
    /// The day the record belongs to.
    public var id: CalendarDay
    /// Fitness: the 42-day weighted average of training load (CTL).
    public var ctl: Double
    /// Fatigue: the 7-day weighted average of training load (ATL).
    public var atl: Double
    /// Resting heart rate in beats per minute, when logged.
    public var restingHeartRate: Int?
    /// Heart rate variability (rMSSD, ms), when logged.
    public var hrv: Double?
    /// Sleep in seconds, when logged.
    public var sleepSeconds: Int?
    /// Body weight in kilograms, when logged.
    public var weight: Double?
    /// When the server last changed the record.
    public var updatedAt: Date

    /// Form: fitness minus fatigue (TSB). Positive means fresh.
    public var form: Double { ctl - atl }

    /// Makes a wellness record.
    public init(
        id: CalendarDay, ctl: Double, atl: Double, restingHeartRate: Int?, hrv: Double?,
        sleepSeconds: Int?, weight: Double?, updatedAt: Date
    ) {
        self.id = id
        self.ctl = ctl
        self.atl = atl
        self.restingHeartRate = restingHeartRate
        self.hrv = hrv
        self.sleepSeconds = sleepSeconds
        self.weight = weight
        self.updatedAt = updatedAt
    }
}
