public import Foundation

/// One day's wellness record, as `GET /wellness` answers it (a bare JSON array): fitness and
/// fatigue from training load, and what the athlete or their devices logged that morning.
///
/// The VeloReady document names the record but none of its fields, so the fields carry
/// intervals.icu's names and units, and only the day (`id`) is required:
///
/// ```json
/// {
///   "id": "2026-11-20", "ctl": 52.3, "atl": 61.8, "restingHR": 49, "hrv": 71.0,
///   "sleepSecs": 27000, "weight": 70.8, "updated": "2026-11-20T08:00:00Z"
/// }
/// ```
///
/// Encoding writes every field, `null` when it is unknown, as intervals.icu does; unknown
/// fields in a response are ignored.
public struct Wellness: Codable, Sendable, Hashable, Identifiable {
    /// The day the record belongs to: `id`, written `YYYY-MM-DD`.
    public var id: CalendarDay
    /// Fitness, the 42-day weighted average of training load (CTL): `ctl`.
    public var ctl: Double?
    /// Fatigue, the 7-day weighted average of training load (ATL): `atl`.
    public var atl: Double?
    /// Resting heart rate in beats per minute, when logged: `restingHR`.
    public var restingHeartRate: Int?
    /// Heart rate variability (rMSSD, ms), when logged: `hrv`.
    public var hrv: Double?
    /// Sleep in seconds, when logged: `sleepSecs`.
    public var sleepSeconds: Int?
    /// Body weight in kilograms, when logged: `weight`.
    public var weight: Double?
    /// When the server last changed the record: `updated`, ISO 8601 with an offset.
    public var updatedAt: Date?

    /// Form: fitness minus fatigue (TSB), when both are known. Positive means fresh.
    public var form: Double? {
        guard let ctl, let atl else { return nil }
        return ctl - atl
    }

    /// Makes a wellness record.
    /// - Parameters:
    ///   - id: The day.
    ///   - ctl: Fitness.
    ///   - atl: Fatigue.
    ///   - restingHeartRate: Resting heart rate in beats per minute.
    ///   - hrv: Heart rate variability in milliseconds.
    ///   - sleepSeconds: Sleep in seconds.
    ///   - weight: Body weight in kilograms.
    ///   - updatedAt: When the record last changed.
    public init(
        id: CalendarDay,
        ctl: Double? = nil,
        atl: Double? = nil,
        restingHeartRate: Int? = nil,
        hrv: Double? = nil,
        sleepSeconds: Int? = nil,
        weight: Double? = nil,
        updatedAt: Date? = nil
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

    /// The JSON keys, as intervals.icu spells them.
    enum CodingKeys: String, CodingKey {
        case id
        case ctl
        case atl
        case restingHeartRate = "restingHR"
        case hrv
        case sleepSeconds = "sleepSecs"
        case weight
        case updatedAt = "updated"
    }

    /// Reads a record: `id` is required; every other field may be missing or `null`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(CalendarDay.self, forKey: .id)
        ctl = try container.decodeIfPresent(Double.self, forKey: .ctl)
        atl = try container.decodeIfPresent(Double.self, forKey: .atl)
        restingHeartRate = try container.decodeIfPresent(Int.self, forKey: .restingHeartRate)
        hrv = try container.decodeIfPresent(Double.self, forKey: .hrv)
        sleepSeconds = try container.decodeIfPresent(Int.self, forKey: .sleepSeconds)
        weight = try container.decodeIfPresent(Double.self, forKey: .weight)
        updatedAt = try container.decodeIfPresent(Date.self, forKey: .updatedAt)
    }

    /// Writes every field; one that is `nil` is written as `null`, so every record has the same keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(ctl, forKey: .ctl)
        try container.encode(atl, forKey: .atl)
        try container.encode(restingHeartRate, forKey: .restingHeartRate)
        try container.encode(hrv, forKey: .hrv)
        try container.encode(sleepSeconds, forKey: .sleepSeconds)
        try container.encode(weight, forKey: .weight)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}
