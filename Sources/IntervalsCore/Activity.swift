public import Foundation

/// One recorded workout, as `GET /activities` (a bare JSON array) and `GET /activities/{id}`
/// answer it.
///
/// The VeloReady document requires only `id` and `name` (its own example is
/// `{"id": "123", "name": "Test Activity"}`), so every other field is optional: a backend that
/// sends just those two still decodes. The other fields carry intervals.icu's names and units:
///
/// ```json
/// {
///   "id": "i1042", "name": "Sweet spot intervals", "type": "Ride",
///   "start_date": "2026-11-20T07:12:00Z", "start_date_local": "2026-11-20T08:12:00",
///   "moving_time": 5400, "distance": 45210.0, "total_elevation_gain": 640.0,
///   "icu_average_watts": 212.0, "average_heartrate": 141.0, "icu_training_load": 88
/// }
/// ```
///
/// Encoding writes every field, `null` when it is unknown, as intervals.icu does; unknown
/// fields in a response are ignored.
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
    /// Distance in metres: `distance`.
    public var distance: Double?
    /// Total climbing in metres: `total_elevation_gain`.
    public var elevationGain: Double?
    /// Average power in watts, when a power meter recorded it: `icu_average_watts`.
    public var averageWatts: Double?
    /// Average heart rate in beats per minute, when recorded: `average_heartrate`.
    public var averageHeartRate: Double?
    /// The training load (TSS-like) the workout earned: `icu_training_load`.
    public var trainingLoad: Int?

    /// Makes an activity.
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
        case id
        case name
        case type
        case startDate = "start_date"
        case startDateLocal = "start_date_local"
        case movingTime = "moving_time"
        case distance
        case elevationGain = "total_elevation_gain"
        case averageWatts = "icu_average_watts"
        case averageHeartRate = "average_heartrate"
        case trainingLoad = "icu_training_load"
    }

    /// Reads an activity: `id` and `name` are required; every other field may be missing or `null`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        type = try container.decodeIfPresent(ActivityType.self, forKey: .type)
        startDate = try container.decodeIfPresent(Date.self, forKey: .startDate)
        startDateLocal = try container.decodeIfPresent(String.self, forKey: .startDateLocal)
        movingTime = try container.decodeIfPresent(Int.self, forKey: .movingTime)
        distance = try container.decodeIfPresent(Double.self, forKey: .distance)
        elevationGain = try container.decodeIfPresent(Double.self, forKey: .elevationGain)
        averageWatts = try container.decodeIfPresent(Double.self, forKey: .averageWatts)
        averageHeartRate = try container.decodeIfPresent(Double.self, forKey: .averageHeartRate)
        trainingLoad = try container.decodeIfPresent(Int.self, forKey: .trainingLoad)
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
        try container.encode(distance, forKey: .distance)
        try container.encode(elevationGain, forKey: .elevationGain)
        try container.encode(averageWatts, forKey: .averageWatts)
        try container.encode(averageHeartRate, forKey: .averageHeartRate)
        try container.encode(trainingLoad, forKey: .trainingLoad)
    }
}
