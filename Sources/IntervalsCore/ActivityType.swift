/// The sport of an ``Activity``, written on the wire as intervals.icu names it (`"Ride"`,
/// `"VirtualRide"`, `"Run"`, …).
///
/// It is an open set rather than an enum: intervals.icu knows dozens of sports (`"Hike"`,
/// `"NordicSki"`, `"Rowing"`, …) and adds more, and one the app has never heard of must still
/// decode. The sports the app treats specially are constants; any other name is kept as it came.
///
/// ```swift
/// switch activity.type {
/// case .ride?, .virtualRide?: showPower()
/// default: showPace()
/// }
/// ```
public struct ActivityType: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    /// The sport's name as the API writes it, such as `"Ride"`.
    public let rawValue: String

    /// Makes a sport from its name as the API writes it.
    /// - Parameter rawValue: The name, such as `"Ride"` or `"NordicSki"`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Cycling outdoors: `"Ride"`.
    public static let ride = ActivityType(rawValue: "Ride")
    /// Cycling on a trainer or in a virtual world: `"VirtualRide"`.
    public static let virtualRide = ActivityType(rawValue: "VirtualRide")
    /// Running: `"Run"`.
    public static let run = ActivityType(rawValue: "Run")
    /// Swimming: `"Swim"`.
    public static let swim = ActivityType(rawValue: "Swim")
    /// Strength training: `"WeightTraining"`.
    public static let weightTraining = ActivityType(rawValue: "WeightTraining")

    /// Whether the sport is cycling, indoors or out, where power is usually recorded.
    public var isCycling: Bool {
        self == .ride || self == .virtualRide
    }

    /// The name as the API writes it.
    public var description: String {
        rawValue
    }

    /// Reads the sport's name: any string is accepted.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(rawValue: try container.decode(String.self))
    }

    /// Writes the sport's name as a string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
