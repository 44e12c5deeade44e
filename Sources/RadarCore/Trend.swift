/// How a radar's opinions were spread over its last days, one point per day.
///
/// On the wire (seed 000):
/// ```json
/// {"id": "r_1-7d", "radarId": "r_1",
///  "data": [{"date": "2026-01-01T00:00:00Z", "forCount": 2, "againstCount": 1, "neutralCount": 0,
///            "totalOpinions": 3, "averageConfidence": 0.71}]}
/// ```
public struct Trend: Codable, Sendable, Hashable, Identifiable {
    /// The trend's identifier.
    public var id: String
    /// The identifier of the ``Radar`` the trend describes.
    public var radarId: String
    /// One point per day, oldest first.
    public var data: [TrendPoint]

    /// Creates a trend.
    /// - Parameters:
    ///   - id: The trend's identifier.
    ///   - radarId: The identifier of the radar the trend describes.
    ///   - data: One point per day, oldest first.
    public init(id: String, radarId: String, data: [TrendPoint]) {
        self.id = id
        self.radarId = radarId
        self.data = data
    }

    /// The point type; the document nests it as `Trend.TrendPoint`.
    public typealias TrendPoint = RadarCore.TrendPoint
}
