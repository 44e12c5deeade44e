public import Foundation

/// The time source of Courier's timed decisions: retry delays, deadlines, the retry budget,
/// token expiry.
///
/// Production code uses ``SystemClock``. Tests inject `CourierTesting.ManualClock`, whose
/// sleeps return at once and advance its time, so timed behaviour is tested without waiting.
public protocol CourierClock: Sendable {
    /// A monotonic instant: what deadlines and budgets measure against.
    var now: ContinuousClock.Instant { get }
    /// The wall-clock date: what HTTP dates (`Retry-After`, token expiry) compare against.
    var date: Date { get }
    /// Suspends until `deadline`, or throws `CancellationError` at once when the task is cancelled.
    /// - Parameter deadline: When to resume.
    func sleep(until deadline: ContinuousClock.Instant) async throws
}

extension CourierClock {
    /// Suspends for `duration`.
    /// - Parameter duration: How long to wait.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now.advanced(by: duration))
    }
}

/// The real clock: `ContinuousClock` and `Date()`.
public struct SystemClock: CourierClock {
    /// Makes the clock.
    public init() {}

    /// `ContinuousClock.now`.
    public var now: ContinuousClock.Instant { ContinuousClock.now }

    /// `Date()`.
    public var date: Date { Date() }

    /// `Task.sleep(until:)` on the continuous clock.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await Task.sleep(until: deadline, clock: .continuous)
    }
}
