public import Foundation

/// One recorded workout, as an intervals.icu-style training API describes it.
public struct Activity: Codable, Sendable, Hashable, Identifiable {
    /// The activity's id, such as `i1042`.
    public var id: String
    /// Its title, which the athlete can edit.
    public var name: String
    /// The sport.
    public var type: ActivityType
    /// When it started.
    public var startDate: Date
    /// Time in motion, in seconds.
    public var movingTime: Int
    /// Distance in metres.
    public var distance: Double
    /// Total climbing in metres.
    public var elevationGain: Double
    /// Average power in watts, when a power meter recorded it.
    public var averageWatts: Double?
    /// Average heart rate in beats per minute, when recorded.
    public var averageHeartRate: Double?
    /// The training load (TSS-like) the workout earned.
    public var trainingLoad: Int
    /// When the server last changed the record.
    public var updatedAt: Date

    /// Makes an activity.
    public init(
        id: String, name: String, type: ActivityType, startDate: Date, movingTime: Int, distance: Double,
        elevationGain: Double, averageWatts: Double?, averageHeartRate: Double?, trainingLoad: Int, updatedAt: Date
    ) {
        self.id = id
        self.name = name
        self.type = type
        self.startDate = startDate
        self.movingTime = movingTime
        self.distance = distance
        self.elevationGain = elevationGain
        self.averageWatts = averageWatts
        self.averageHeartRate = averageHeartRate
        self.trainingLoad = trainingLoad
        self.updatedAt = updatedAt
    }
}

/// The sport of an ``Activity``.
public enum ActivityType: String, Codable, Sendable, Hashable, CaseIterable {
    /// Cycling outdoors.
    case ride = "Ride"
    /// Cycling on a trainer.
    case virtualRide = "VirtualRide"
    /// Running.
    case run = "Run"
    /// Swimming.
    case swim = "Swim"
    /// Strength training.
    case weightTraining = "WeightTraining"
}

/// The fields of an ``Activity`` an athlete may change.
public struct ActivityUpdate: Codable, Sendable, Hashable {
    /// A new title.
    public var name: String?
    /// A corrected sport.
    public var type: ActivityType?

    /// Makes an update; `nil` fields stay as they are.
    public init(name: String? = nil, type: ActivityType? = nil) {
        self.name = name
        self.type = type
    }
}
