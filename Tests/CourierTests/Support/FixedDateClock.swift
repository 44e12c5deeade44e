import Courier
import Foundation

/// A real clock whose wall-clock date stands still at a chosen moment: deadlines, sleeps and
/// timeouts run in real time, while "today" (what `activities.list()` reads back from, say)
/// is fixed, so a test against the reference server's fixed synthetic history gives the same
/// answer whatever day it runs.
struct FixedDateClock: CourierClock {
    /// The date the clock always reads.
    let date: Date

    var now: ContinuousClock.Instant { ContinuousClock.now }

    func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await Task.sleep(until: deadline, clock: .continuous)
    }

    /// 14:00 UTC on the reference server's last day of intervals history, 20 November 2026.
    static let lastIntervalsDay = FixedDateClock(date: Date(timeIntervalSince1970: 1_795_183_200))
}
