import Dispatch
import Synchronization

/// The attempt deadlines of one transport's tasks, on one dispatch timer.
///
/// Each request's deadline bounds its whole exchange, body included. Rather than a task or a
/// timer per request, the transport keeps one timer armed for the earliest deadline; when it
/// fires, every entry whose deadline has passed runs its expiry (which fails the request
/// with `CourierError.Code.timedOut` and cancels its data task), and the timer is
/// armed again for the next one. An entry is removed when its task completes.
///
/// `Sendable` without `@unchecked`: a `final class` whose mutable state, the timer source
/// included, sits in one `Mutex`.
final class DeadlineTimer: Sendable {
    /// Identifies an entry, to remove it.
    struct Token: Sendable, Hashable {
        fileprivate let id: Int
    }

    private struct Entry {
        let deadline: ContinuousClock.Instant
        let expire: @Sendable () -> Void
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var nextID = 0
        /// The deadline the timer is armed for, or `nil` when it is idle.
        var armedFor: ContinuousClock.Instant?
        var source: (any DispatchSourceTimer)?
    }

    private let state: Mutex<State>

    init(queue: DispatchQueue = DispatchQueue(label: "courier.urlsession.deadlines")) {
        state = Mutex(State(source: DispatchSource.makeTimerSource(queue: queue)))
        state.withLock { state in
            state.source?.setEventHandler { [weak self] in self?.fire() }
            state.source?.activate()
        }
    }

    deinit {
        state.withLock { $0.source?.cancel() }
    }

    /// Runs `expire` once `deadline` has passed, unless the entry is removed first.
    func add(_ deadline: ContinuousClock.Instant, expire: @escaping @Sendable () -> Void) -> Token {
        state.withLock { state in
            state.nextID += 1
            state.entries[state.nextID] = Entry(deadline: deadline, expire: expire)
            if state.armedFor.map({ deadline < $0 }) ?? true { Self.arm(&state, for: deadline) }
            return Token(id: state.nextID)
        }
    }

    /// Forgets an entry; its expiry will not run. The timer stays armed: a firing with nothing
    /// due only arms it again for what is left.
    func remove(_ token: Token) {
        _ = state.withLock { $0.entries.removeValue(forKey: token.id) }
    }

    /// How many entries wait (for tests).
    var count: Int { state.withLock { $0.entries.count } }

    private func fire() {
        let now = ContinuousClock.now
        let due: [@Sendable () -> Void] = state.withLock { state in
            var dueIDs: [Int] = []
            var next: ContinuousClock.Instant?
            for (id, entry) in state.entries {
                if entry.deadline <= now {
                    dueIDs.append(id)
                } else if next.map({ entry.deadline < $0 }) ?? true {
                    next = entry.deadline
                }
            }
            // Removed after the scan, not while iterating (which would copy the dictionary).
            let due = dueIDs.compactMap { state.entries.removeValue(forKey: $0)?.expire }
            if let next { Self.arm(&state, for: next) } else { state.armedFor = nil }
            return due
        }
        for expire in due { expire() }
    }

    private static func arm(_ state: inout State, for deadline: ContinuousClock.Instant) {
        state.armedFor = deadline
        let remaining = ContinuousClock.now.duration(to: deadline)
        let (seconds, attoseconds) = remaining.components
        // At most about 31 years out; a deadline already past is due now.
        let nanoseconds = remaining <= .zero ? 0 : min(seconds, 1_000_000_000) * 1_000_000_000 + attoseconds / 1_000_000_000
        // Wall time keeps counting while a device sleeps, as the continuous clock does (uptime,
        // `DispatchTime`, stops); a firing that comes early only arms the timer again.
        state.source?.schedule(wallDeadline: .now() + .nanoseconds(Int(clamping: nanoseconds)), leeway: .milliseconds(1))
    }
}
