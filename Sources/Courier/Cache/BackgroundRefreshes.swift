import Synchronization

/// How many background refreshes (stale-while-revalidate) of one cache are under way, and
/// who waits for them all to end: a test harness that lets time pass on a clock of its own
/// (the cache conformance runner on virtual time) waits here instead of sleeping, so that a
/// refresh reaches the origin before the next step does.
///
/// A `final class` whose state sits in a `Mutex`, which makes it `Sendable`.
final class BackgroundRefreshes: Sendable {
    private struct State {
        var running = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// A refresh is about to start; call before its task is made.
    func started() {
        state.withLock { $0.running += 1 }
    }

    /// A refresh ended, however it ended.
    func ended() {
        let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.running -= 1
            guard state.running == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once no refresh is under way.
    func idle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.running == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
