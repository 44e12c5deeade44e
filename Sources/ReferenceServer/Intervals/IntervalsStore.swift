import Foundation
import IntervalsCore

/// Each user's training history, made on first use and kept for edits.
actor IntervalsStore {
    private struct History {
        var activities: [StoredActivity]
        var wellness: [Wellness]
    }

    private let generator: TrainingHistoryGenerator
    private var histories: [String: History] = [:]

    init(seed: UInt64) {
        generator = TrainingHistoryGenerator(seed: seed)
    }

    /// A user's activities, newest first, optionally between two days, at most `limit`.
    func activities(userId: String, oldest: CalendarDay?, newest: CalendarDay?, limit: Int) -> [StoredActivity] {
        let matching = history(userId).activities.filter { stored in
            (oldest.map { stored.day >= $0 } ?? true) && (newest.map { stored.day <= $0 } ?? true)
        }
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
        history.activities[index].updatedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        histories[userId] = history
        return history.activities[index]
    }

    /// The user's wellness records from `start` through `end`, oldest first.
    func wellness(userId: String, start: CalendarDay, end: CalendarDay) -> [Wellness] {
        history(userId).wellness.filter { $0.id >= start && $0.id <= end }
    }

    private func history(_ userId: String) -> History {
        if let history = histories[userId] { return history }
        let made = generator.history(userId: userId)
        let history = History(activities: made.activities, wellness: made.wellness)
        histories[userId] = history
        return history
    }
}
