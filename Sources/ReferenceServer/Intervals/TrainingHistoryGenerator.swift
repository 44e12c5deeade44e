import Foundation
import IntervalsCore

/// Makes an athlete's synthetic training history: about four months of activities ending on
/// ``lastDay``, and the wellness records that follow from them.
///
/// Everything is drawn from ``SplitMix64`` seeded by the server's seed and the user's id, so
/// a user sees the same history on every run. Fitness (CTL) and fatigue (ATL) are the usual
/// exponentially weighted averages of daily training load, over 42 and 7 days.
struct TrainingHistoryGenerator: Sendable {
    /// The last day with data.
    static let lastDay = CalendarDay(year: 2026, month: 11, day: 20)!
    /// How many days of history each athlete has.
    static let days = 120

    let seed: UInt64

    /// The history of one user: activities newest first, wellness oldest first.
    func history(userId: String) -> (activities: [StoredActivity], wellness: [Wellness]) {
        var random = SplitMix64(seed: seed, text: "training:" + userId, number: 0)
        let firstDay = Self.lastDay.adding(days: -(Self.days - 1))
        var activities: [StoredActivity] = []
        var wellness: [Wellness] = []
        var ctl = 45.0
        var atl = 50.0
        for (index, day) in firstDay.through(Self.lastDay).enumerated() {
            var load = 0
            if random.nextUnit() < 0.72 {
                let stored = makeActivity(number: 1_000 + index, day: day, random: &random)
                load = stored.activity.trainingLoad ?? 0
                activities.append(stored)
            }
            ctl += (Double(load) - ctl) / 42
            atl += (Double(load) - atl) / 7
            wellness.append(makeWellness(day: day, ctl: ctl, atl: atl, random: &random))
        }
        return (activities.reversed(), wellness)
    }

    private func makeActivity(number: Int, day: CalendarDay, random: inout SplitMix64) -> StoredActivity {
        let type = random.pick([ActivityType.ride, .ride, .virtualRide, .run, .run, .swim, .weightTraining])
        let minutes = Int(random.nextDouble(in: 30...200))
        let intensity = random.nextDouble(in: 0.55...0.95)
        let speed: Double
        if type.isCycling {
            speed = random.nextDouble(in: 24...34)
        } else if type == .run {
            speed = random.nextDouble(in: 9...14)
        } else if type == .swim {
            speed = random.nextDouble(in: 2.5...4)
        } else {
            speed = 0
        }
        let start = day.startDate.addingTimeInterval(random.nextDouble(in: 6...19) * 3_600).rounded()
        let activity = Activity(
            id: "i\(number)",
            name: Self.names[type, default: ["Workout"]][random.nextIndex(below: 3)],
            type: type,
            startDate: start,
            startDateLocal: Self.localTimestamp(start),
            movingTime: minutes * 60,
            distance: (speed * Double(minutes) / 60 * 1_000).rounded(),
            elevationGain: type == .ride ? random.nextDouble(in: 100...1_800).rounded() : 0,
            averageWatts: type.isCycling ? (random.nextDouble(in: 150...260) * intensity / 0.75).rounded() : nil,
            averageHeartRate: type == .weightTraining ? nil : random.nextDouble(in: 120...165).rounded(),
            trainingLoad: Int(Double(minutes) / 60 * intensity * intensity * 100)
        )
        return StoredActivity(activity: activity, day: day, updatedAt: start.addingTimeInterval(Double(minutes * 60) + 600).rounded())
    }

    private func makeWellness(day: CalendarDay, ctl: Double, atl: Double, random: inout SplitMix64) -> Wellness {
        let logged = random.nextUnit() < 0.9
        return Wellness(
            id: day,
            ctl: (ctl * 10).rounded() / 10,
            atl: (atl * 10).rounded() / 10,
            restingHeartRate: logged ? Int(random.nextDouble(in: 46...56)) : nil,
            hrv: logged ? random.nextDouble(in: 48...92).rounded() : nil,
            sleepSeconds: logged ? Int(random.nextDouble(in: 5.5...9)) * 3_600 : nil,
            weight: logged ? (random.nextDouble(in: 70...72) * 10).rounded() / 10 : nil,
            updatedAt: day.startDate.addingTimeInterval(8 * 3_600)
        )
    }

    /// `start_date_local`: the synthetic athlete lives in UTC, so their clock reads the UTC
    /// time, written without an offset (`2026-11-20T07:12:00`).
    private static func localTimestamp(_ date: Date) -> String {
        String(date.formatted(Date.ISO8601FormatStyle()).dropLast())
    }

    private static let names: [ActivityType: [String]] = [
        .ride: ["Endurance ride", "Sweet spot intervals", "Hill repeats"],
        .virtualRide: ["Zwift race", "Trainer VO2max", "Recovery spin"],
        .run: ["Easy run", "Tempo run", "Long run"],
        .swim: ["Pool intervals", "Open water", "Technique swim"],
        .weightTraining: ["Strength A", "Strength B", "Core"],
    ]
}

private extension Date {
    /// The same moment rounded to a whole second, so that it survives an HTTP date.
    func rounded() -> Date {
        Date(timeIntervalSince1970: timeIntervalSince1970.rounded())
    }
}
