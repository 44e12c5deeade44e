import Foundation

extension RadarCatalog {
    /// The topics the server starts with, and how many days ago each was created.
    private static let demoTopics: [(topic: String, daysAgo: Int)] = [
        ("Swift 6 strict concurrency is worth the migration", 5),
        ("Remote work improves productivity", 3),
        ("Nuclear power is key to decarbonisation", 1),
    ]

    /// Adds the demo radars, public, back-dated and refreshed every 12 hours up to `now`,
    /// so that lists and trends have something to show.
    /// - Parameters:
    ///   - ownerId: The user who owns them: the demo account.
    ///   - now: The current time.
    mutating func addDemoRadars(ownerId: String, now: Date) {
        let halfDay: TimeInterval = 12 * 60 * 60
        for demo in Self.demoTopics {
            let createdAt = now.addingTimeInterval(-Double(demo.daysAgo) * 2 * halfDay)
            let radar = create(topic: demo.topic, isPublic: true, userId: ownerId, now: createdAt)
            var pollTime = createdAt.addingTimeInterval(halfDay)
            var polls = 0
            while pollTime <= now && polls < 3 {
                _ = refresh(id: radar.id, now: pollTime)
                pollTime = pollTime.addingTimeInterval(halfDay)
                polls += 1
            }
        }
    }
}
