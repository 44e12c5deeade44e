/// How long a `courier soak` runs and at what pace: the duration, the fault schedule, the
/// warm-up left out of the slopes, and the traffic's fixed shape.
///
/// Everything here is derived from the duration alone, so two runs of the same length make
/// the same schedule.
struct SoakPlan: Sendable {
    /// The longest run `--minutes` accepts: one day.
    static let maximumMinutes = 24.0 * 60

    /// How long the traffic runs, in seconds.
    let seconds: Double
    /// The workers sending requests at once.
    let workers = 8
    /// The least time between two keyed writes, all workers together (2 a second). Every
    /// keyed write leaves a radar and an idempotent response on the in-process server, whose
    /// memory is part of the process's RSS, so writes are paced to keep that share small.
    let writeInterval = Duration.milliseconds(500)
    /// The pause a worker takes between two operations.
    let pause = Duration.milliseconds(20)
    /// The longest wait for the offline queue to drain once the traffic has stopped
    /// (a delivery round already under way may overrun it by its own timeouts).
    let drainLimit = Duration.seconds(30)

    /// Makes the plan of a run of `minutes`, or of `quickSeconds` seconds when that is given.
    init(minutes: Double, quickSeconds: Double?) {
        self.seconds = quickSeconds ?? minutes * 60
    }

    /// The run's length.
    var duration: Duration { .seconds(seconds) }

    /// The run's length in minutes.
    var minutes: Double { seconds / 60 }

    /// The samples left out of the slopes: the first 20% of the run or 30 s, whichever is shorter.
    var warmUpSeconds: Double { min(seconds * 0.2, 30) }

    /// The time between two faults (and between two refreshes of the watched radar): a sixth
    /// of the run, from 3 to 10 seconds. At 3 s or more, the token expiry (one fault in five)
    /// comes at most twice in 30 s, under the session's guard of three refreshes per 30 s.
    var faultPeriodSeconds: Double { min(max(seconds / 6, 3), 10) }

    /// ``faultPeriodSeconds`` as a duration.
    var faultPeriod: Duration { .seconds(faultPeriodSeconds) }

    /// How long an offline period lasts: 3 s, or half the fault period if that is shorter.
    var outageLength: Duration { .seconds(min(3, faultPeriodSeconds / 2)) }
}
