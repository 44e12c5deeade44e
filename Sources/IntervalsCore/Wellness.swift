public import Foundation

/// One day's wellness record, as intervals.icu keeps it: fitness and fatigue from training
/// load, and what the athlete or their devices logged that day.
///
/// It is an element of `GET /api/v1/athlete/{id}/wellness` (a bare JSON array), the body of
/// `GET` and `PUT /api/v1/athlete/{id}/wellness/{YYYY-MM-DD}`, and an element of the array
/// `PUT /api/v1/athlete/{id}/wellness-bulk` takes. Unlike activities, its fields are camelCase
/// on the wire, and the record is keyed by its day in `id`:
///
/// ```json
/// {
///   "id": "2026-11-20", "ctl": 52.3, "atl": 61.8, "rampRate": 1.2, "restingHR": 49,
///   "hrv": 71.0, "sleepSecs": 27000, "sleepScore": 84, "weight": 70.8, "steps": 9120,
///   "soreness": 2, "fatigue": 2, "mood": 1, "updated": "2026-11-20T08:00:00Z"
/// }
/// ```
///
/// Only `id` is required when reading; every other field may be missing or `null`, and fields
/// the service adds are ignored. Encoding writes `id` and only the fields that are set, so a
/// record sent with `PUT` changes what it carries and leaves the rest of the day as it was
/// (a `null` could read as "clear it").
public struct Wellness: Codable, Sendable, Hashable, Identifiable {
    /// The day the record belongs to: `id`, written `YYYY-MM-DD`.
    public var id: CalendarDay
    /// Fitness, the 42-day weighted average of training load (CTL): `ctl`.
    public var ctl: Double?
    /// Fatigue, the 7-day weighted average of training load (ATL): `atl`.
    public var atl: Double?
    /// How fast fitness is rising, in CTL per week: `rampRate`.
    public var rampRate: Double?
    /// Resting heart rate in beats per minute, when logged: `restingHR`.
    public var restingHeartRate: Int?
    /// Heart rate variability (rMSSD, ms), when logged: `hrv`.
    public var hrv: Double?
    /// Heart rate variability (SDNN, ms), when logged: `hrvSDNN`.
    public var hrvSDNN: Double?
    /// Sleep in seconds, when logged: `sleepSecs`.
    public var sleepSeconds: Int?
    /// A device's sleep score, when logged: `sleepScore`.
    public var sleepScore: Double?
    /// A device's readiness score, when logged: `readiness`.
    public var readiness: Double?
    /// Body weight in kilograms, when logged: `weight`.
    public var weight: Double?
    /// Steps that day, when logged: `steps`.
    public var steps: Int?
    /// Blood oxygen saturation in percent, when logged: `spO2`.
    public var spO2: Double?
    /// Muscle soreness, 1 (low) to 4 (extreme), when logged: `soreness`.
    public var soreness: Int?
    /// Fatigue as the athlete felt it, 1 (low) to 4 (extreme), when logged: `fatigue`.
    public var fatigue: Int?
    /// Mood, 1 (great) to 4 (grumpy), when logged: `mood`.
    public var mood: Int?
    /// When the server last changed the record: `updated`, ISO 8601 with an offset.
    public var updatedAt: Date?

    /// Form: fitness minus fatigue (TSB), when both are known. Positive means fresh.
    public var form: Double? {
        guard let ctl, let atl else { return nil }
        return ctl - atl
    }

    /// Makes a wellness record; every field but the day is unknown until set.
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
        case id, ctl, atl, rampRate, hrv, hrvSDNN, sleepScore, readiness, weight, steps, spO2, soreness, fatigue, mood
        case restingHeartRate = "restingHR"
        case sleepSeconds = "sleepSecs"
        case updatedAt = "updated"
    }

    /// Reads a record: `id` is required; every other field may be missing or `null`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(CalendarDay.self, forKey: .id)
        ctl = try container.decodeIfPresent(Double.self, forKey: .ctl)
        atl = try container.decodeIfPresent(Double.self, forKey: .atl)
        rampRate = try container.decodeIfPresent(Double.self, forKey: .rampRate)
        restingHeartRate = try container.decodeWholeNumberIfPresent(forKey: .restingHeartRate)
        hrv = try container.decodeIfPresent(Double.self, forKey: .hrv)
        hrvSDNN = try container.decodeIfPresent(Double.self, forKey: .hrvSDNN)
        sleepSeconds = try container.decodeWholeNumberIfPresent(forKey: .sleepSeconds)
        sleepScore = try container.decodeIfPresent(Double.self, forKey: .sleepScore)
        readiness = try container.decodeIfPresent(Double.self, forKey: .readiness)
        weight = try container.decodeIfPresent(Double.self, forKey: .weight)
        steps = try container.decodeWholeNumberIfPresent(forKey: .steps)
        spO2 = try container.decodeIfPresent(Double.self, forKey: .spO2)
        soreness = try container.decodeWholeNumberIfPresent(forKey: .soreness)
        fatigue = try container.decodeWholeNumberIfPresent(forKey: .fatigue)
        mood = try container.decodeWholeNumberIfPresent(forKey: .mood)
        updatedAt = try container.decodeIfPresent(Date.self, forKey: .updatedAt)
    }

    /// Writes `id` and the fields that are set; a `nil` field is left out, never written `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(ctl, forKey: .ctl)
        try container.encodeIfPresent(atl, forKey: .atl)
        try container.encodeIfPresent(rampRate, forKey: .rampRate)
        try container.encodeIfPresent(restingHeartRate, forKey: .restingHeartRate)
        try container.encodeIfPresent(hrv, forKey: .hrv)
        try container.encodeIfPresent(hrvSDNN, forKey: .hrvSDNN)
        try container.encodeIfPresent(sleepSeconds, forKey: .sleepSeconds)
        try container.encodeIfPresent(sleepScore, forKey: .sleepScore)
        try container.encodeIfPresent(readiness, forKey: .readiness)
        try container.encodeIfPresent(weight, forKey: .weight)
        try container.encodeIfPresent(steps, forKey: .steps)
        try container.encodeIfPresent(spO2, forKey: .spO2)
        try container.encodeIfPresent(soreness, forKey: .soreness)
        try container.encodeIfPresent(fatigue, forKey: .fatigue)
        try container.encodeIfPresent(mood, forKey: .mood)
        try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
    }

    /// The record with every field that `other` sets copied over this one's: what a `PUT` of
    /// `other` does to the stored day. The day and `updatedAt` are this record's.
    /// - Parameter other: The fields to change.
    public func merging(_ other: Wellness) -> Wellness {
        var merged = self
        merged.ctl = other.ctl ?? ctl
        merged.atl = other.atl ?? atl
        merged.rampRate = other.rampRate ?? rampRate
        merged.restingHeartRate = other.restingHeartRate ?? restingHeartRate
        merged.hrv = other.hrv ?? hrv
        merged.hrvSDNN = other.hrvSDNN ?? hrvSDNN
        merged.sleepSeconds = other.sleepSeconds ?? sleepSeconds
        merged.sleepScore = other.sleepScore ?? sleepScore
        merged.readiness = other.readiness ?? readiness
        merged.weight = other.weight ?? weight
        merged.steps = other.steps ?? steps
        merged.spO2 = other.spO2 ?? spO2
        merged.soreness = other.soreness ?? soreness
        merged.fatigue = other.fatigue ?? fatigue
        merged.mood = other.mood ?? mood
        return merged
    }
}
