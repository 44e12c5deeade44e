import Foundation
import Synchronization

// How tests wait. A test waits for an event (a count reaching a number, a stream yielding,
// a task ending), never for time to pass: a sleep long enough on one machine is too short on
// a loaded one. Real time appears only as a deadline that turns a wait that would never end
// into a failure.

/// How many times longer than written a test waits before it gives up: 1, or the whole number
/// in `COURIER_TEST_PATIENCE`. `scripts/tsan.sh` sets it: under the thread sanitizer the
/// whole suite runs several times slower, and a bound meant to end a test that is already
/// wrong would end one that is merely slow. It lengthens bounds on failure only; a test that
/// checks that something happens within a time (a timeout firing) keeps its own figure.
let testPatience = max(1, Int(ProcessInfo.processInfo.environment["COURIER_TEST_PATIENCE"] ?? "") ?? 1)

/// Runs `operation` for at most `limit` of real time (times ``testPatience``).
///
/// The limit is a bound on failure, not a way to synchronise: it only decides how long a
/// test that is already wrong takes to say so. `operation` must return when its task is
/// cancelled (all the waits in this file do), or the deadline cannot end it.
/// - Returns: What `operation` returned, or `nil` when the limit passed first.
func withDeadline<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async -> T) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask { await operation() }
        group.addTask {
            // A deadline, not a synchronisation (see above).
            try? await Task.sleep(for: limit * testPatience)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

/// Waits until either of two waits ends, then cancels the other: for a test of "this
/// happens, not that", which waits for whichever comes first. Both must end when cancelled.
func waitForEither(_ one: @escaping @Sendable () async -> Void, _ other: @escaping @Sendable () async -> Void) async {
    await withTaskGroup(of: Void.self) { group in
        group.addTask { await one() }
        group.addTask { await other() }
        _ = await group.next()
        group.cancelAll()
    }
}

/// A count of something that happens on another task or thread (calls reaching a transport,
/// connections closing, a process ending), that a test can wait on.
///
/// `Sendable` without `@unchecked`: the state sits in a `Mutex`.
final class EventCounter: Sendable {
    private struct State {
        var count = 0
        var nextID = 0
        var waiters: [Int: (target: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
    }

    private let state = Mutex(State())

    init() {}

    /// How many times the event happened so far.
    var count: Int { state.withLock { $0.count } }

    /// Counts one more, and wakes those waiting for the new count.
    func record() {
        let due = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count += 1
            let count = state.count
            let due = state.waiters.filter { $0.value.target <= count }
            for id in due.keys { state.waiters.removeValue(forKey: id) }
            return due.values.map { $0.continuation }
        }
        for continuation in due { continuation.resume() }
    }

    /// Waits until the count reaches `target`, for at most `limit` of real time.
    /// - Returns: Whether it did.
    func waitUntil(atLeast target: Int, within limit: Duration = .seconds(10)) async -> Bool {
        _ = await withDeadline(limit) { await self.reach(target) }
        return count >= target
    }

    /// Returns when the count reaches `target`, or at once when the task is cancelled.
    private func reach(_ target: Int) async {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if Task.isCancelled || state.count >= target { return true }
                    state.waiters[id] = (target, continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
        }
    }
}

/// Checks `condition` every few milliseconds until it holds, for at most `limit` of real time
/// (times ``testPatience``).
///
/// Only for a condition nothing announces: a count another process changes, read through an
/// API that offers no event. Say at the call site why there is no event to wait on.
/// - Returns: Whether the condition came to hold.
func pollUntil(within limit: Duration, _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit * testPatience
    while !(await condition()) {
        guard ContinuousClock.now < deadline else { return false }
        // The polling interval of a bounded poll (see above), not a synchronisation.
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}
