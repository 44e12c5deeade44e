import Foundation
import RadarCore

/// Buckets a radar's opinions into one `TrendPoint` per UTC day.
struct TrendCalculator: Sendable {
    /// The calendar that defines a day: Gregorian, UTC.
    private let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current
        return calendar
    }()

    /// The trend of the last `days` days, today included, oldest first.
    /// - Parameters:
    ///   - radarId: The radar the opinions belong to.
    ///   - opinions: The radar's opinions; those outside the window are ignored.
    ///   - days: How many days to cover, at least 1.
    ///   - now: The current time, which fixes "today".
    func trend(radarId: String, opinions: [Opinion], days: Int, now: Date) -> Trend {
        let today = calendar.startOfDay(for: now)
        let dayStarts = (0..<days).reversed().compactMap { offset in
            calendar.date(byAdding: .day, value: -offset, to: today)
        }
        var buckets: [Date: [Opinion]] = [:]
        for opinion in opinions {
            buckets[calendar.startOfDay(for: opinion.createdAt), default: []].append(opinion)
        }
        let points = dayStarts.map { day in
            Self.point(for: day, opinions: buckets[day] ?? [])
        }
        return Trend(id: "\(radarId)-\(days)d", radarId: radarId, data: points)
    }

    private static func point(for day: Date, opinions: [Opinion]) -> TrendPoint {
        let total = opinions.count
        let confidenceSum = opinions.reduce(0) { $0 + $1.confidence }
        let average = total == 0 ? 0 : (confidenceSum / Double(total) * 1000).rounded() / 1000
        return TrendPoint(
            date: day,
            forCount: opinions.count { $0.stance == .for },
            againstCount: opinions.count { $0.stance == .against },
            neutralCount: opinions.count { $0.stance == .neutral },
            totalOpinions: total,
            averageConfidence: average
        )
    }
}
