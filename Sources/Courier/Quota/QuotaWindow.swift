import Foundation

/// One of a provider's published limits: at most ``limit`` calls in any ``length`` of time,
/// such as Strava's 100 per 15 minutes and 1,000 per day.
///
/// ```swift
/// let strava = [QuotaWindow(limit: 100, length: .seconds(15 * 60)), QuotaWindow(limit: 1_000, length: .seconds(86_400))]
/// ```
public struct QuotaWindow: Sendable, Hashable, Codable {
    /// The most calls in the window.
    public var limit: Int
    /// The window's length.
    public var length: Duration

    /// Makes a window.
    /// - Parameters:
    ///   - limit: The most calls in the window (at least 1).
    ///   - length: The window's length (at least one second).
    public init(limit: Int, length: Duration) {
        self.limit = max(1, limit)
        self.length = max(length, .seconds(1))
    }

    /// The window's length in seconds.
    var seconds: TimeInterval { length.timeInterval }
}
