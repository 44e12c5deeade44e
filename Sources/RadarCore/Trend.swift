/// How a radar's opinions were spread over its last days, one point per day.
public struct Trend: Codable, Sendable, Hashable {
    /// The identifier of the ``Radar`` the trend describes.
    public var radarId: String
    /// How many days the trend covers.
    public var days: Int
    /// One point per day, oldest first.
    public var points: [TrendPoint]

    /// Creates a trend.
    /// - Parameters:
    ///   - radarId: The identifier of the radar the trend describes.
    ///   - days: How many days the trend covers.
    ///   - points: One point per day, oldest first.
    public init(radarId: String, days: Int, points: [TrendPoint]) {
        self.radarId = radarId
        self.days = days
        self.points = points
    }
}
