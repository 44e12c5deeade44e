public import Foundation

/// One recorded workout, as intervals.icu answers it: an element of
/// `GET /api/v1/athlete/{id}/activities` (a bare JSON array) or the body of
/// `GET /api/v1/activity/{id}`.
///
/// Only `id` and `name` are required; every other field may be missing or `null`, as
/// intervals.icu leaves out what a workout did not record. Fields carry intervals.icu's
/// snake_case names and units; fields the service adds over time are ignored:
///
/// ```json
/// {
///   "id": "i1042", "name": "Sweet spot intervals", "type": "Ride",
///   "start_date": "2026-11-20T07:12:00Z", "start_date_local": "2026-11-20T08:12:00",
///   "moving_time": 5400, "elapsed_time": 5620, "distance": 45210.0, "total_elevation_gain": 640.0,
///   "icu_average_watts": 212, "icu_weighted_avg_watts": 231, "icu_training_load": 88,
///   "icu_intensity": 84.2, "icu_ftp": 275, "average_heartrate": 141, "max_heartrate": 171,
///   "calories": 1130, "trainer": false
/// }
/// ```
///
/// Whole-number fields also read a number written with a fraction of zero (`88.0`). Encoding
/// writes every field, `null` when it is unknown, as intervals.icu does.
public struct Activity: Codable, Sendable, Hashable, Identifiable {
    /// The activity's id, such as `i1042`: `id`.
    public var id: String
    /// Its title, which the athlete can edit: `name`.
    public var name: String
    /// The sport: `type`.
    public var type: ActivityType?
    /// When it started, in UTC: `start_date`, ISO 8601 with an offset (`2026-11-20T07:12:00Z`).
    public var startDate: Date?
    /// When it started on the athlete's own clock: `start_date_local`, ISO 8601 without an
    /// offset (`2026-11-20T08:12:00`), kept as written because it names no moment by itself.
    public var startDateLocal: String?
    /// Time in motion, in seconds: `moving_time`.
    public var movingTime: Int?
    /// Time from start to finish, pauses included, in seconds: `elapsed_time`.
    public var elapsedTime: Int?
    /// Distance in metres: `distance`.
    public var distance: Double?
    /// Total climbing in metres: `total_elevation_gain`.
    public var elevationGain: Double?
    /// Average power in watts as the device recorded it: `average_watts`.
    public var averageWatts: Double?
    /// Average power in watts as intervals.icu computes it from the power stream: `icu_average_watts`.
    public var icuAverageWatts: Double?
    /// Weighted (normalised) average power in watts: `icu_weighted_avg_watts`.
    public var weightedAverageWatts: Double?
    /// The training load (TSS-like) the workout earned: `icu_training_load`.
    public var trainingLoad: Int?
    /// Intensity as a percentage of FTP: `icu_intensity`.
    public var intensity: Double?
    /// The FTP in watts the load was computed with: `icu_ftp`.
    public var ftp: Int?
    /// Fitness (CTL) after the activity: `icu_ctl`.
    public var ctl: Double?
    /// Fatigue (ATL) after the activity: `icu_atl`.
    public var atl: Double?
    /// Average heart rate in beats per minute, when recorded: `average_heartrate`.
    public var averageHeartRate: Double?
    /// Highest heart rate in beats per minute, when recorded: `max_heartrate`.
    public var maxHeartRate: Double?
    /// Energy in kilocalories: `calories`.
    public var calories: Int?
    /// Whether it was ridden on an indoor trainer: `trainer`.
    public var trainer: Bool?

    /// Makes an activity; every field but `id` and `name` is unknown until set.
    /// - Parameters:
    ///   - id: The activity's id.
    ///   - name: Its title.
    ///   - type: The sport.
    ///   - startDate: When it started.
    ///   - startDateLocal: When it started on the athlete's clock, as `YYYY-MM-DDTHH:MM:SS`.
    ///   - movingTime: Time in motion, in seconds.
    ///   - distance: Distance in metres.
    ///   - elevationGain: Total climbing in metres.
    ///   - averageWatts: Average power in watts.
    ///   - averageHeartRate: Average heart rate in beats per minute.
    ///   - trainingLoad: The training load.
    public init(
        id: String,
        name: String,
        type: ActivityType? = nil,
        startDate: Date? = nil,
        startDateLocal: String? = nil,
        movingTime: Int? = nil,
        distance: Double? = nil,
        elevationGain: Double? = nil,
        averageWatts: Double? = nil,
        averageHeartRate: Double? = nil,
        trainingLoad: Int? = nil
    ) {
        self.id = id
        self.name = name
        self.type = type
        self.startDate = startDate
        self.startDateLocal = startDateLocal
        self.movingTime = movingTime
        self.distance = distance
        self.elevationGain = elevationGain
        self.averageWatts = averageWatts
        self.averageHeartRate = averageHeartRate
        self.trainingLoad = trainingLoad
    }

    /// The JSON keys, as intervals.icu spells them.
    enum CodingKeys: String, CodingKey {
        case id, name, type, distance, calories, trainer
        case startDate = "start_date"
        case startDateLocal = "start_date_local"
        case movingTime = "moving_time"
        case elapsedTime = "elapsed_time"
        case elevationGain = "total_elevation_gain"
        case averageWatts = "average_watts"
        case icuAverageWatts = "icu_average_watts"
        case weightedAverageWatts = "icu_weighted_avg_watts"
        case trainingLoad = "icu_training_load"
        case intensity = "icu_intensity"
        case ftp = "icu_ftp"
        case ctl = "icu_ctl"
        case atl = "icu_atl"
        case averageHeartRate = "average_heartrate"
        case maxHeartRate = "max_heartrate"
    }

    /// Reads an activity: `id` and `name` are required; every other field may be missing or `null`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        type = try container.decodeIfPresent(ActivityType.self, forKey: .type)
        startDate = try container.decodeIfPresent(Date.self, forKey: .startDate)
        startDateLocal = try container.decodeIfPresent(String.self, forKey: .startDateLocal)
        movingTime = try container.decodeWholeNumberIfPresent(forKey: .movingTime)
        elapsedTime = try container.decodeWholeNumberIfPresent(forKey: .elapsedTime)
        distance = try container.decodeIfPresent(Double.self, forKey: .distance)
        elevationGain = try container.decodeIfPresent(Double.self, forKey: .elevationGain)
        averageWatts = try container.decodeIfPresent(Double.self, forKey: .averageWatts)
        icuAverageWatts = try container.decodeIfPresent(Double.self, forKey: .icuAverageWatts)
        weightedAverageWatts = try container.decodeIfPresent(Double.self, forKey: .weightedAverageWatts)
        trainingLoad = try container.decodeWholeNumberIfPresent(forKey: .trainingLoad)
        intensity = try container.decodeIfPresent(Double.self, forKey: .intensity)
        ftp = try container.decodeWholeNumberIfPresent(forKey: .ftp)
        ctl = try container.decodeIfPresent(Double.self, forKey: .ctl)
        atl = try container.decodeIfPresent(Double.self, forKey: .atl)
        averageHeartRate = try container.decodeIfPresent(Double.self, forKey: .averageHeartRate)
        maxHeartRate = try container.decodeIfPresent(Double.self, forKey: .maxHeartRate)
        calories = try container.decodeWholeNumberIfPresent(forKey: .calories)
        trainer = try container.decodeIfPresent(Bool.self, forKey: .trainer)
    }

    /// Writes every field; one that is `nil` is written as `null`, so every activity has the same keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(type, forKey: .type)
        try container.encode(startDate, forKey: .startDate)
        try container.encode(startDateLocal, forKey: .startDateLocal)
        try container.encode(movingTime, forKey: .movingTime)
        try container.encode(elapsedTime, forKey: .elapsedTime)
        try container.encode(distance, forKey: .distance)
        try container.encode(elevationGain, forKey: .elevationGain)
        try container.encode(averageWatts, forKey: .averageWatts)
        try container.encode(icuAverageWatts, forKey: .icuAverageWatts)
        try container.encode(weightedAverageWatts, forKey: .weightedAverageWatts)
        try container.encode(trainingLoad, forKey: .trainingLoad)
        try container.encode(intensity, forKey: .intensity)
        try container.encode(ftp, forKey: .ftp)
        try container.encode(ctl, forKey: .ctl)
        try container.encode(atl, forKey: .atl)
        try container.encode(averageHeartRate, forKey: .averageHeartRate)
        try container.encode(maxHeartRate, forKey: .maxHeartRate)
        try container.encode(calories, forKey: .calories)
        try container.encode(trainer, forKey: .trainer)
    }
}
