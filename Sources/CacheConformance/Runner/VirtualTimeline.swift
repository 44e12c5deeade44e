import Courier
import Foundation
import Synchronization

/// Each test's own time, for a run against the embedded origin
/// (``CacheConformanceRunner/usesVirtualTime``): the test's origin answers (its `Date`,
/// `Server-Now` and dated fields) and its client's cache read one clock that moves only when
/// the suite says time passes (`pause_after`, a step's `response_pause`).
///
/// Real time lets a machine too busy to send two requests within a freshness window of a
/// second or two (`max-age=2`, with `Date` in whole seconds) fail a test that a prompt
/// machine passes; with this clock the outcome depends on the cache alone. Each test's time
/// starts at a whole second of the wall clock, so a response's age is exactly the time the
/// suite let pass.
///
/// A `final class` whose state sits in a `Mutex`, which makes it `Sendable`.
final class VirtualTimeline: Sendable {
    private let dates = Mutex<[String: Date]>([:])

    /// Starts a test's time at the current whole second.
    func start(_ uuid: String) {
        let second = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        dates.withLock { $0[uuid] = second }
    }

    /// Forgets a test's time.
    func end(_ uuid: String) {
        _ = dates.withLock { $0.removeValue(forKey: uuid) }
    }

    /// A test's current time, or `nil` for a test this timeline does not keep.
    func date(for uuid: String) -> Date? {
        dates.withLock { $0[uuid] }
    }

    /// Lets `duration` pass for a test; returns `false` for a test this timeline does not keep.
    @discardableResult
    func advance(_ uuid: String, by duration: Duration) -> Bool {
        dates.withLock { dates in
            guard let date = dates[uuid] else { return false }
            dates[uuid] = date.addingTimeInterval(duration.timeInterval)
            return true
        }
    }

    /// The clock a test's client gives its cache.
    func clock(for uuid: String) -> any CourierClock {
        TestClock(timeline: self, uuid: uuid)
    }

    /// A test's time as a `CourierClock`: `date` is the test's; `now` and sleeping stay on
    /// the system's continuous clock (deadlines and retries are not what the suite times).
    private struct TestClock: CourierClock {
        let timeline: VirtualTimeline
        let uuid: String

        var now: ContinuousClock.Instant { ContinuousClock.now }

        var date: Date { timeline.date(for: uuid) ?? Date() }

        func sleep(until deadline: ContinuousClock.Instant) async throws {
            try await Task.sleep(until: deadline, clock: .continuous)
        }
    }
}
