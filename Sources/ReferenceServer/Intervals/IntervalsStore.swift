import Foundation
import IntervalsCore

/// Each athlete's training history, made on first use and kept for edits.
///
/// Every user of the server is an athlete, with an intervals.icu-style id (`i1001`, `i1002`, …)
/// given in the order users first reach the intervals routes.
actor IntervalsStore {
    private struct History {
        var activities: [StoredActivity]
        var wellness: [CalendarDay: Wellness]
    }

    private let generator: TrainingHistoryGenerator
    private var histories: [String: History] = [:]
    private var athleteIds: [String: String] = [:]

    init(seed: UInt64) {
        generator = TrainingHistoryGenerator(seed: seed)
    }

    /// The athlete id of a user, such as `i1001`.
    func athleteId(userId: String) -> String {
        if let id = athleteIds[userId] { return id }
        let id = "i\(1_001 + athleteIds.count)"
        athleteIds[userId] = id
        return id
    }

    /// A user's activities, newest first, between two days, at most `limit`.
    func activities(userId: String, oldest: CalendarDay, newest: CalendarDay, limit: Int) -> [StoredActivity] {
        let matching = history(userId).activities.filter { $0.day >= oldest && $0.day <= newest }
        return Array(matching.prefix(limit))
    }

    /// One of the user's activities.
    func activity(id: String, userId: String) -> StoredActivity? {
        history(userId).activities.first { $0.activity.id == id }
    }

    /// Applies an update to one of the user's activities and returns it, or `nil` if there is none.
    func update(id: String, userId: String, with update: ActivityUpdate, at now: Date) -> StoredActivity? {
        var history = history(userId)
        guard let index = history.activities.firstIndex(where: { $0.activity.id == id }) else { return nil }
        if let name = update.name { history.activities[index].activity.name = name }
        if let type = update.type { history.activities[index].activity.type = type }
        history.activities[index].updatedAt = Self.wholeSeconds(now)
        histories[userId] = history
        return history.activities[index]
    }

    /// The user's wellness records from `start` through `end`, oldest first.
    func wellness(userId: String, start: CalendarDay, end: CalendarDay) -> [Wellness] {
        history(userId).wellness.values.filter { $0.id >= start && $0.id <= end }.sorted { $0.id < $1.id }
    }

    /// One day's record, or `nil` when the day has none.
    func wellness(userId: String, day: CalendarDay) -> Wellness? {
        history(userId).wellness[day]
    }

    /// Writes the fields each record sets over its stored day (a new day starts empty), and
    /// returns the days as stored.
    func write(userId: String, _ records: [Wellness], at now: Date) -> [Wellness] {
        var history = history(userId)
        let stamp = Self.wholeSeconds(now)
        let written = records.map { record in
            var stored = (history.wellness[record.id] ?? Wellness(id: record.id)).merging(record)
            stored.updatedAt = stamp
            history.wellness[record.id] = stored
            return stored
        }
        histories[userId] = history
        return written
    }

    private func history(_ userId: String) -> History {
        if let history = histories[userId] { return history }
        let made = generator.history(userId: userId)
        let history = History(activities: made.activities, wellness: Dictionary(uniqueKeysWithValues: made.wellness.map { ($0.id, $0) }))
        histories[userId] = history
        return history
    }

    private static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}
