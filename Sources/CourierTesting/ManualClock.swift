public import Courier
public import Foundation
import Synchronization

/// A `CourierClock` for tests: time moves only when the test (or a sleep) says so.
///
/// - In ``Mode/autoAdvance`` mode, a sleep returns at once and moves the clock forward by the
///   time slept: retry waits cost nothing, and ``sleeps`` records what was waited.
/// - In ``Mode/suspending`` mode, a sleep suspends until ``advance(by:)`` reaches its deadline
///   or its task is cancelled: use it to test what happens during a wait.
///
/// ```swift
/// let clock = ManualClock()
/// var configuration = ClientConfiguration(baseURL: url, clock: clock)
/// // … a request retried twice …
/// #expect(clock.sleeps.count == 2)
/// ```
public final class ManualClock: CourierClock {
    /// How sleeps behave.
    public enum Mode: Sendable {
        /// A sleep returns at once and advances the clock.
        case autoAdvance
        /// A sleep waits for ``ManualClock/advance(by:)`` or cancellation.
        case suspending
    }

    private struct Sleeper {
        let id: Int
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var offset: Duration = .zero
        var sleeps: [Duration] = []
        var sleepers: [Sleeper] = []
        var nextID = 0
    }

    private let mode: Mode
    private let originInstant: ContinuousClock.Instant
    private let originDate: Date
    private let state = Mutex(State())

    /// Makes a clock that starts at the real current time.
    /// - Parameter mode: How sleeps behave; auto-advancing by default.
    public init(mode: Mode = .autoAdvance) {
        self.mode = mode
        self.originInstant = ContinuousClock.now
        self.originDate = Date()
    }

    /// The clock's monotonic instant.
    public var now: ContinuousClock.Instant {
        originInstant.advanced(by: state.withLock { $0.offset })
    }

    /// The clock's wall-clock date.
    public var date: Date {
        originDate.addingTimeInterval(state.withLock { $0.offset }.timeInterval)
    }

    /// Every duration slept so far, in order.
    public var sleeps: [Duration] {
        state.withLock { $0.sleeps }
    }

    /// How many sleeps are waiting (suspending mode).
    public var pendingSleeps: Int {
        state.withLock { $0.sleepers.count }
    }

    /// Sleeps until `deadline`, as the mode says.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        try Task.checkCancellation()
        switch mode {
        case .autoAdvance:
            state.withLock { state in
                let wait = originInstant.advanced(by: state.offset).duration(to: deadline)
                state.sleeps.append(max(.zero, wait))
                if wait > .zero { state.offset += wait }
            }
            await Task.yield()
        case .suspending:
            let id = state.withLock { state -> Int in
                state.nextID += 1
                return state.nextID
            }
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let resumeNow = state.withLock { state -> Bool in
                        let wait = originInstant.advanced(by: state.offset).duration(to: deadline)
                        state.sleeps.append(max(.zero, wait))
                        if wait <= .zero { return true }
                        state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            } onCancel: {
                let sleeper = state.withLock { state -> Sleeper? in
                    guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.sleepers.remove(at: index)
                }
                sleeper?.continuation.resume(throwing: CancellationError())
            }
        }
    }

    /// Moves the clock forward, waking the sleeps whose deadlines have come.
    /// - Parameter duration: How far.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.offset += duration
            let now = originInstant.advanced(by: state.offset)
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits (yielding, for at most about five real seconds) until at least `count` sleeps are pending.
    /// - Parameter count: How many.
    /// - Returns: Whether they came.
    @discardableResult
    public func waitForPendingSleeps(_ count: Int = 1) async -> Bool {
        for _ in 0..<5_000 {
            if pendingSleeps >= count { return true }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return false
    }
}
